import { type ChangeSpec, EditorState, type Extension, Prec, type Transaction } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { accessRefusal, COLLAB_TEXT, type CollabNote, collabNote } from "@coder/protocol";
import { HocuspocusProvider } from "@hocuspocus/provider";
import {
  type YSyncConfig,
  yCollab,
  ySyncAnnotation,
  ySyncFacet,
  yUndoManagerKeymap,
} from "y-codemirror.next";
import * as Y from "yjs";
import { reportAccessEnded } from "../../../lib/auth/access-ended";
import { socketUrl } from "../../../lib/sockets/socket-url";

/** A file that does not open live within this long opens the classic way (load, edit, Save). */
const OPEN_TIMEOUT_MS = 15_000;

/** Why a document could not open or ended. */
export class LiveDocumentError extends Error {
  constructor(
    /** The service's reason (`stale-copy`, `not-text`, …) or `unavailable`. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "LiveDocumentError";
  }
}

/** What the editor does with what happens to a live document. */
export interface LiveDocumentEvents {
  /** Whether the file on disk holds the text everyone sees (nothing waits to be written). */
  saved(saved: boolean): void;
  /** The service ended the document (file deleted, renamed, no longer text). */
  closed(note: Extract<CollabNote, { type: "closed" }>): void;
  /** This copy can no longer sync (an earlier load's copy, access ended): open the file again or stop. */
  lost(error: LiveDocumentError): void;
}

export interface LiveDocumentOptions {
  location: Pick<Location, "protocol" | "host">;
  workspaceId: string;
  path: string;
}

const tabId = () => crypto.randomUUID().replaceAll("-", "");

/**
 * One open file's share of the service's live document: a Y.Doc synced over its own socket
 * (`/collab/<workspace>/<tab>`), the CodeMirror extension that binds the shown editor to it
 * (y-codemirror.next: sync, other people's labelled cursors, undo of one's own changes only),
 * and the binding of the file's state while another tab is shown, which no view plugin sees.
 */
export class LiveDocument {
  readonly doc = new Y.Doc();
  readonly text = this.doc.getText(COLLAB_TEXT);
  private readonly undo = new Y.UndoManager(this.text);
  private readonly provider: HocuspocusProvider;
  private epoch: string | null = null;
  private serverSaved = true;
  private events: LiveDocumentEvents | null = null;
  private hiddenChanges: ((changes: ChangeSpec[]) => void) | null = null;
  private destroyed = false;
  /** y-codemirror's binding; Ctrl/Cmd-Z undoes only what this tab typed, never others' or the disk's. */
  private readonly binding: Extension;
  /** The binding's sync config: the origin of this tab's own edits, which its undo tracks. */
  private readonly syncConfig: YSyncConfig;

  private constructor(options: LiveDocumentOptions, opened: (error?: LiveDocumentError) => void) {
    this.provider = new HocuspocusProvider({
      url: socketUrl(options.location, "collab", options.workspaceId, tabId()),
      name: options.path,
      document: this.doc,
      token: () => JSON.stringify({ epoch: this.epoch }),
      onSynced: () => opened(),
      onStateless: ({ payload }) => this.onNote(payload),
      onUnsyncedChanges: () => this.reportSaved(),
      onAuthenticationFailed: ({ reason }) =>
        this.fail(new LiveDocumentError(reason, refusalMessage(reason)), opened),
      onClose: ({ event }) => {
        const refusal = accessRefusal(event.code);
        if (!refusal || refusal.retry) return;
        reportAccessEnded(event.code);
        this.fail(new LiveDocumentError("access", refusal.message), opened);
      },
    });
    this.binding = [
      yCollab(this.text, this.provider.awareness, { undoManager: this.undo }),
      Prec.high(keymap.of(yUndoManagerKeymap)),
    ];
    this.syncConfig = EditorState.create({ extensions: this.binding }).facet(ySyncFacet);
    this.text.observe((event, transaction) => {
      // The shown editor's view plugin applies these itself; a hidden tab's state needs them here.
      const shown = this.hiddenChanges === null;
      if (shown || transaction.origin === this.syncConfig) return;
      const changes: ChangeSpec[] = [];
      let pos = 0;
      for (const op of event.delta) {
        if (op.insert != null) changes.push({ from: pos, insert: op.insert as string });
        else if (op.delete != null) {
          changes.push({ from: pos, to: pos + op.delete });
          pos += op.delete;
        } else pos += op.retain ?? 0;
      }
      this.hiddenChanges?.(changes);
    });
  }

  /** Opens `path` live; resolves once the text is there, fails with the service's reason. */
  static open(options: LiveDocumentOptions): Promise<LiveDocument> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(
        () => opened(new LiveDocumentError("unavailable", "live editing did not answer")),
        OPEN_TIMEOUT_MS,
      );
      const opened = (error?: LiveDocumentError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          live.destroy();
          reject(error);
        } else resolve(live);
      };
      const live: LiveDocument = new LiveDocument(options, opened);
    });
  }

  /** The editor state's extension; the state must start with `text`'s content. */
  extension(): Extension {
    return this.binding;
  }

  /** From now on, tell `events`. */
  bind(events: LiveDocumentEvents): void {
    this.events = events;
    this.reportSaved();
  }

  /**
   * The file's tab is hidden (`apply` takes changes from others into its state) or shown again
   * (null: the view plugin takes over).
   */
  setHidden(apply: ((changes: ChangeSpec[]) => void) | null): void {
    this.hiddenChanges = apply;
  }

  /** A change made to the hidden tab's state (a rename by the language server) goes to everyone. */
  hiddenEdit(transaction: Transaction): void {
    if (!transaction.docChanged || transaction.annotation(ySyncAnnotation)) return;
    this.doc.transact(() => {
      let shift = 0;
      transaction.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
        const insert = inserted.sliceString(0, inserted.length, "\n");
        if (toA > fromA) this.text.delete(fromA + shift, toA - fromA);
        if (insert) this.text.insert(fromA + shift, insert);
        shift += insert.length - (toA - fromA);
      });
    }, this.syncConfig);
  }

  /** Whether this tab typed something the service has not acknowledged (not sent, or refused). */
  get hasUnacknowledged(): boolean {
    return this.provider.hasUnsyncedChanges;
  }

  /**
   * Where the cursor of the person with presence id `presenceId` is in the text (its head), or
   * null when they have none here (not in this file, or it left).
   */
  cursorOf(presenceId: string): number | null {
    for (const state of this.provider.awareness?.getStates().values() ?? []) {
      const { user, cursor } = state as {
        user?: { presenceId?: unknown };
        cursor?: { head?: unknown } | null;
      };
      if (user?.presenceId !== presenceId || !cursor?.head) continue;
      try {
        const head = Y.createRelativePositionFromJSON(cursor.head);
        const at = Y.createAbsolutePositionFromRelativePosition(head, this.doc);
        if (at && at.type === this.text) return at.index;
      } catch {
        return null;
      }
    }
    return null;
  }

  /** Calls `listener` whenever someone's cursor changes (or they come or go); returns the stop. */
  onCursors(listener: () => void): () => void {
    const awareness = this.provider.awareness;
    awareness?.on("change", listener);
    return () => awareness?.off("change", listener);
  }

  /** The annotation that marks changes from others in a hidden tab's state. */
  remoteAnnotation() {
    return ySyncAnnotation.of(this.syncConfig);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.events = null;
    this.provider.destroy();
    this.undo.destroy();
    this.doc.destroy();
  }

  private onNote(payload: string): void {
    let note: CollabNote;
    try {
      note = collabNote.parse(JSON.parse(payload));
    } catch {
      return;
    }
    if (note.type === "hello") {
      this.epoch = note.epoch;
      this.serverSaved = note.saved;
      this.reportSaved();
    } else if (note.type === "disk") {
      this.serverSaved = note.saved;
      this.reportSaved();
    } else {
      this.events?.closed(note);
    }
  }

  private reportSaved(): void {
    this.events?.saved(this.serverSaved && !this.provider.hasUnsyncedChanges);
  }

  private fail(error: LiveDocumentError, opened: (error?: LiveDocumentError) => void): void {
    opened(error);
    this.events?.lost(error);
  }
}

function refusalMessage(reason: string): string {
  switch (reason) {
    case "stale-copy":
      return "the file was reopened from disk";
    case "not-text":
      return "the file is not text";
    case "too-large":
      return "the file is too large to edit live";
    case "too-many-documents":
      return "too many files are open in this workspace";
    case "not-found":
      return "the file does not exist";
    default:
      return "live editing is not available";
  }
}
