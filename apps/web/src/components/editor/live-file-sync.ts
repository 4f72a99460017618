import { type ChangeSpec, EditorState, type Extension, Text, Transaction } from "@codemirror/state";
import type { CollabNote } from "@coder/protocol";
import { errorMessage } from "../../lib/errors/error-message";
import { type LiveDocument, LiveDocumentError } from "./collab/live-document";
import type { FileSync, FileSyncHost, LoadedFile } from "./file-sync";
import { SavedFileSync } from "./saved-file-sync";

/**
 * The shared way: the file's state is bound to the service's live document (everyone's typing,
 * the agent's and the disk's arrive in it), and the service writes it to disk, so there is no
 * Save and the tab is "dirty" while the disk has not caught up. When the document ends (deleted,
 * no longer text, access ended) the tab goes on the saved way with the text it holds.
 */
export class LiveFileSync implements FileSync {
  private constructor(
    private readonly host: FileSyncHost,
    private readonly path: string,
    private readonly live: LiveDocument,
  ) {}

  /**
   * Opens the file live: the service reads it once for everyone. Null when it opens the saved way
   * instead: no collaboration here, or the service refused it (not text, too large, missing,
   * unavailable); throws when access ended.
   */
  static async load(host: FileSyncHost, path: string): Promise<LoadedFile | null> {
    const live = await connect(host, path);
    if (!live) return null;
    return {
      kind: "text",
      size: new TextEncoder().encode(live.text.toString()).byteLength,
      start: (extensions) => new LiveFileSync(host, path, live).start(extensions),
      discard: () => live.destroy(),
    };
  }

  get unsaved(): boolean {
    return this.live.hasUnacknowledged;
  }

  mayClose(): boolean {
    return true;
  }

  /** The service writes a live file as people type. */
  async save(): Promise<void> {}

  /** The service merges changes on disk into the document. */
  async reload(): Promise<void> {}

  keepMine(): void {}

  async diskChanged(): Promise<void> {}

  /** The service tells a live file's editors itself (and follows a rename). */
  diskDeleted(): void {}

  keepsTabWhenDeleted(): boolean {
    return false;
  }

  /** A live document belongs to its path: the file is opened live again under the new one. */
  moved(to: string): void {
    this.live.destroy();
    LiveFileSync.reopen(this.host, to);
  }

  dirtyChanged(): void {}

  hiddenEdit(transaction: Transaction): void {
    this.live.hiddenEdit(transaction);
  }

  /** While the view does not show the file, others' changes go to its state here. */
  setShown(shown: boolean): void {
    this.live.setHidden(shown ? null : (changes) => this.applyRemote(changes));
  }

  cursorOf(presenceId: string): number | null {
    return this.live.cursorOf(presenceId);
  }

  onCursors(listener: () => void): () => void {
    return this.live.onCursors(listener);
  }

  /** There is no one to sync with any more. */
  endAccess(): void {
    this.detach();
  }

  dispose(): void {
    this.live.destroy();
  }

  /** Opens the file live again (its copy was from an earlier load, or it moved); saved meanwhile. */
  private static reopen(host: FileSyncHost, path: string): void {
    host.setSync(path, new SavedFileSync(host, path));
    void (async () => {
      try {
        const [extensions, live] = await Promise.all([host.extensionsFor(path), connect(host, path)]);
        if (!host.documents.get(path) || host.syncOf(path) instanceof LiveFileSync) return live?.destroy();
        if (live) new LiveFileSync(host, path, live).start(extensions);
        else continueSaved(host, path, extensions);
      } catch (error) {
        if (!host.sessionExpired(error)) host.showError(`Could not reopen ${path}: ${errorMessage(error)}`);
      }
    })();
  }

  /** Puts the document's text into the file's state, bound to it, keeping the cursor where it was. */
  private start(extensions: Extension): this {
    const { host, path, live } = this;
    const text = live.text.toString();
    const previous = host.documents.get(path)?.state.selection.main;
    const head = Math.min(previous?.head ?? 0, text.length);
    const doc = host.documents.create(path, text, undefined, [extensions, live.extension()]);
    doc.state = doc.state.update({ selection: { anchor: head } }).state;
    host.setSync(path, this);
    live.bind({
      saved: (saved) => host.updateTab(path, { dirty: !saved }),
      closed: (note) => this.closed(note),
      lost: (error) => this.lost(error),
    });
    host.updateTab(path, { live: true });
    host.stateReplaced(path);
    return this;
  }

  private closed(note: Extract<CollabNote, { type: "closed" }>): void {
    if (this.host.syncOf(this.path) !== this) return;
    if (note.reason === "renamed" && note.to) {
      this.host.moved(this.path, note.to);
      return;
    }
    this.detach((saved) => {
      if (note.reason !== "deleted") return this.host.showError(`${this.path}: ${note.message}`);
      // What the tab shows is on no disk now: Save would write it back.
      const doc = this.host.documents.get(this.path);
      if (doc) this.host.documents.markSaved(this.path, Text.empty, undefined);
      this.host.updateTab(this.path, { dirty: doc?.dirty ?? false });
      saved.diskDeleted();
    });
  }

  private lost(error: LiveDocumentError): void {
    if (this.host.syncOf(this.path) !== this) return;
    // This copy was from an earlier load of the file: open it again.
    if (error.reason === "stale-copy") this.moved(this.path);
    else {
      this.detach();
      if (error.reason !== "access")
        this.host.showError(`${this.path} is no longer shared: ${error.message}`);
    }
  }

  /** Others' changes into the state of a file the view does not show. */
  private applyRemote(changes: ChangeSpec[]): void {
    const doc = this.host.documents.get(this.path);
    if (!doc) return;
    const annotations = [this.live.remoteAnnotation(), Transaction.addToHistory.of(false)];
    this.host.record(this.path, doc.state.update({ changes, annotations }).state);
  }

  /** Stops syncing live: the file goes on the saved way, with its text (Save writes it). */
  private detach(then?: (saved: SavedFileSync) => void): void {
    this.live.destroy();
    const saved = new SavedFileSync(this.host, this.path);
    this.host.setSync(this.path, saved);
    void this.host.extensionsFor(this.path).then((extensions) => {
      if (this.host.syncOf(this.path) !== saved) return;
      continueSaved(this.host, this.path, extensions);
      then?.(saved);
    });
  }
}

/** The file's live document, or null when it should open the saved way. */
async function connect(host: FileSyncHost, path: string): Promise<LiveDocument | null> {
  if (!host.openLive) return null;
  try {
    return await host.openLive(path);
  } catch (error) {
    if (error instanceof LiveDocumentError && error.reason === "access") throw error;
    return null;
  }
}

/** Rebinds the file's state without the live document: the tab goes on the saved way. */
function continueSaved(host: FileSyncHost, path: string, extensions: Extension): void {
  const doc = host.documents.get(path);
  if (!doc) return;
  const state = EditorState.create({ doc: doc.state.doc, selection: doc.state.selection, extensions });
  host.documents.update(path, state);
  host.updateTab(path, { live: false });
  host.stateReplaced(path);
}
