import {
  type ChangeSpec,
  EditorState,
  type Extension,
  StateEffect,
  Text,
  Transaction,
  type TransactionSpec,
} from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import {
  type CollabNote,
  type FileChange,
  MAX_COLLAB_FILE_BYTES,
  type ReadResult,
  type WriteResult,
} from "@coder/protocol";
import { errorCode, errorMessage, isConflict } from "../../lib/errors/error-message";
import { isWithin, movedPath, normalizePath } from "../../lib/paths/workspace-path";
import type { UnsavedText } from "../access/unsaved-at-end";
import { type LiveDocument, LiveDocumentError } from "./collab/live-document";
import { type EditorCommand, runEditorCommand } from "./editor-commands";
import { editorExtensions, noEditing } from "./editor-extensions";
import { diskReaction, FileDocuments } from "./file-documents";
import { loadLanguageFor } from "./languages";
import type { EditorHost } from "./lsp/editor-host";
import type { LanguageIntelligence } from "./lsp/language-intelligence";
import { noOpenFiles, type OpenFiles, type OpenFilesAction, openFilesReducer } from "./open-files";
import { previewKindOf } from "./preview-kind";

/** The two file calls the editor makes, bound to its workspace. */
export interface FilesApi {
  read(path: string): Promise<ReadResult>;
  write(path: string, content: string, expectedVersion: string | undefined): Promise<WriteResult>;
}

export interface EditorControllerDeps {
  files: FilesApi;
  confirm: (message: string) => boolean;
  showError: (message: string) => void;
  /** Handles an error that means the session is gone; returns true if it did. */
  sessionExpired: (error: unknown) => boolean;
  /** Language servers for the open files; without it the editor only highlights. */
  intelligence?: LanguageIntelligence;
  /** A viewer's editor: files open and show, nothing can be typed or saved. */
  readOnly?: boolean;
  /**
   * Opens a text file's live document, shared with everyone else and the agent and written to
   * disk by the service; without it (or when it fails) files open the classic way: load, Save.
   */
  openLive?: (path: string) => Promise<LiveDocument>;
}

/**
 * The editor's behaviour, outside React: loading and saving files, keeping each tab's state in
 * step with the disk, and showing the active file in the single CodeMirror view. It owns the tab
 * list; React subscribes to it.
 */
export class EditorController implements EditorHost {
  readonly documents = new FileDocuments();
  private tabs: OpenFiles = noOpenFiles;
  private readonly listeners = new Set<() => void>();
  private readonly textListeners = new Set<(path: string) => void>();
  private view: EditorView | null = null;
  /** The path whose state the view holds. */
  private shown: string | null = null;
  /** Files open live, by path. */
  private readonly live = new Map<string, LiveDocument>();
  /** Access ended (link revoked or expired, workspace deleted): nothing can be typed or saved. */
  private ended = false;

  constructor(private readonly deps: EditorControllerDeps) {
    deps.intelligence?.bind(this);
  }

  get intelligence(): LanguageIntelligence | undefined {
    return this.deps.intelligence;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): OpenFiles => this.tabs;

  /** Hears of every change to an open file's text (a preview follows the typing). */
  subscribeText(listener: (path: string) => void): () => void {
    this.textListeners.add(listener);
    return () => this.textListeners.delete(listener);
  }

  /** The current text of an open file, unsaved edits included. */
  textOf(path: string): string | undefined {
    return this.documents.get(path)?.state.doc.toString();
  }

  attach(host: HTMLElement): () => void {
    const view = new EditorView({
      parent: host,
      dispatchTransactions: (transactions, v) => {
        v.update(transactions);
        if (this.shown) this.record(this.shown, v.state);
      },
    });
    this.view = view;
    this.show(this.tabs.active);
    return () => {
      view.destroy();
      this.view = null;
      this.shown = null;
      this.bindHiddenLive();
    };
  }

  /** Puts the file's state into the view (after a tab switch, a load, or a rename). */
  show(path: string | null): void {
    const doc = path ? this.documents.get(path) : undefined;
    this.shown = doc ? path : null;
    const view = this.view;
    if (!view || !doc) {
      this.bindHiddenLive();
      return;
    }
    if (view.state !== doc.state) {
      view.setState(doc.state);
      view.dispatch({ effects: EditorView.scrollIntoView(doc.state.selection.main.head, { y: "center" }) });
    } else {
      view.requestMeasure();
    }
    this.bindHiddenLive();
  }

  focus(): void {
    this.view?.focus();
  }

  /** Find, replace or go to line in the file showing; false when no text file is showing. */
  command(command: EditorCommand): boolean {
    if (!this.view || !this.shown) return false;
    runEditorCommand(this.view, command);
    return true;
  }

  stateOf(path: string): EditorState | undefined {
    return this.documents.get(path)?.state;
  }

  viewOf(path: string): EditorView | null {
    return this.shown === path ? this.view : null;
  }

  async reveal(path: string): Promise<EditorView | null> {
    await this.open(path);
    if (this.tabs.active !== path || !this.documents.get(path)) return null;
    this.show(path);
    return this.view;
  }

  /**
   * Shows `path` where the cursor of the person with presence id `presenceId` is, and keeps it
   * there as they move (without moving this person's own cursor); returns the stop.
   */
  async followCursor(path: string, presenceId: string): Promise<() => void> {
    await this.reveal(path);
    const live = this.live.get(path);
    if (!live) return () => {};
    let last: number | null = null;
    const reveal = () => {
      const at = live.cursorOf(presenceId);
      const view = this.viewOf(path);
      if (at === null || at === last || !view) return;
      last = at;
      view.dispatch({ effects: EditorView.scrollIntoView(at, { y: "center" }) });
    };
    reveal();
    return live.onCursors(reveal);
  }

  /** Shows the file with the cursor at a 1-based line and column (a problem, say). */
  async goTo(path: string, line: number, column: number): Promise<void> {
    const view = await this.reveal(path);
    if (!view) return;
    const doc = view.state.doc;
    const target = doc.line(Math.min(Math.max(1, line), doc.lines));
    const anchor = target.from + Math.min(Math.max(0, column - 1), target.length);
    view.dispatch({ selection: { anchor }, effects: EditorView.scrollIntoView(anchor, { y: "center" }) });
    view.focus();
  }

  async open(rawPath: string): Promise<void> {
    const path = normalizePath(rawPath);
    const existing = this.tabs.files.find((file) => file.path === path);
    this.dispatch({ type: "open", path });
    if (existing && existing.phase !== "failed") return;
    try {
      const [file, extensions] = await Promise.all([this.deps.files.read(path), this.extensionsFor(path)]);
      const live =
        file.kind === "text" && file.size <= MAX_COLLAB_FILE_BYTES ? await this.openLive(path) : null;
      const stillWanted = !this.documents.get(path) && this.tabs.files.some((f) => f.path === path);
      if (live && stillWanted) this.startLive(path, live, extensions, live.text.toString());
      else {
        live?.destroy();
        if (file.kind === "text" && stillWanted)
          this.documents.create(path, file.content, file.version, extensions);
      }
      this.dispatch({ type: "loaded", path, kind: file.kind, size: file.size });
      // Markdown and SVG open with their preview beside them.
      if (file.kind === "text" && previewKindOf(path))
        this.dispatch({ type: "update", path, changes: { preview: true } });
    } catch (error) {
      if (!this.deps.sessionExpired(error))
        this.dispatch({ type: "failed", path, error: errorMessage(error) });
    }
  }

  close(path: string): void {
    const doc = this.documents.get(path);
    const live = this.live.get(path);
    if (
      !live &&
      !this.ended &&
      doc?.dirty &&
      !this.deps.confirm(`Close ${path} without saving your changes?`)
    )
      return;
    live?.destroy();
    this.live.delete(path);
    this.documents.close(path);
    this.deps.intelligence?.closed(path);
    if (this.shown === path) this.shown = null;
    this.dispatch({ type: "close", path });
  }

  /**
   * Access ended for good: every open file turns read-only at once, and what the service never got
   * (a live file's typing it did not acknowledge, a classic file's unsaved edits) is returned, so
   * the person can copy it out. Live documents stop: there is no one to sync with.
   */
  endAccess(): UnsavedText[] {
    if (this.ended) return [];
    this.ended = true;
    const unsaved: UnsavedText[] = [];
    for (const file of this.tabs.files) {
      const doc = this.documents.get(file.path);
      if (!doc) continue;
      const live = this.live.get(file.path);
      if (live ? live.hasUnacknowledged : doc.dirty)
        unsaved.push({ path: file.path, text: doc.state.doc.toString() });
      this.transact(file.path, { effects: StateEffect.appendConfig.of(noEditing) });
    }
    for (const [path, live] of this.live) {
      live.destroy();
      this.live.delete(path);
      void this.extensionsFor(path).then((extensions) => this.detachLive(path, extensions));
    }
    this.dispatch({ type: "ended" });
    return unsaved;
  }

  /** Saves the file; without `overwrite`, refuses (and says so) if the disk changed since it was read. */
  async save(path: string, overwrite = false): Promise<void> {
    const doc = this.documents.get(path);
    // A live file is written by the service as people type.
    if (!doc || doc.saving || this.live.has(path) || this.ended) return;
    const sent = doc.state.doc;
    doc.saving = true;
    this.dispatch({ type: "update", path, changes: { saving: true } });
    try {
      const result = await this.deps.files.write(path, sent.toString(), overwrite ? undefined : doc.version);
      this.documents.markSaved(path, sent, result.version);
      this.dispatch({ type: "update", path, changes: { dirty: doc.dirty, notice: null } });
    } catch (error) {
      if (isConflict(error)) {
        this.dispatch({ type: "update", path, changes: { notice: "save-conflict" } });
      } else if (!this.deps.sessionExpired(error)) {
        this.deps.showError(`Could not save ${path}: ${errorMessage(error)}`);
      }
    } finally {
      doc.saving = false;
      this.dispatch({ type: "update", path, changes: { saving: false } });
      this.recheckIfAsked(path, doc);
    }
  }

  /** Shows or hides the preview beside a file that has one. */
  togglePreview(path: string): void {
    const file = this.tabs.files.find((f) => f.path === path);
    if (file && previewKindOf(path))
      this.dispatch({ type: "update", path, changes: { preview: !file.preview } });
  }

  /** Applies a change to a file's text, through the view when it is the one showing. */
  transact(path: string, spec: TransactionSpec): void {
    const doc = this.documents.get(path);
    if (!doc) return;
    if (this.view && this.shown === path) this.view.dispatch(spec);
    else {
      const transaction = doc.state.update(spec);
      this.live.get(path)?.hiddenEdit(transaction);
      this.record(path, transaction.state);
    }
  }

  /** Replaces the text with the disk's, discarding unsaved edits (they stay in undo history). */
  async reload(path: string): Promise<void> {
    try {
      const file = await this.deps.files.read(path);
      if (file.kind === "text") this.takeDisk(path, file.content, file.version);
    } catch (error) {
      if (!this.deps.sessionExpired(error))
        this.deps.showError(`Could not reload ${path}: ${errorMessage(error)}`);
    }
  }

  /** Keeps the edits in the editor; the next save replaces what is on disk. */
  keepMine(path: string): void {
    const doc = this.documents.get(path);
    if (!doc) return;
    doc.version = doc.diskVersion;
    doc.diskVersion = undefined;
    this.dispatch({ type: "update", path, changes: { notice: null } });
  }

  /** Reacts to a batch from `files.changes`. */
  fileChanges(changes: readonly FileChange[]): void {
    for (const change of changes) {
      const path = normalizePath(change.path);
      if (change.type === "unlink" || change.type === "unlinkDir") {
        for (const file of this.tabs.files) {
          // The service tells a live file's editors itself (and follows a rename).
          if (isWithin(file.path, path) && !this.live.has(file.path)) this.markDeleted(file.path);
        }
      } else if (change.type !== "addDir") {
        void this.checkDisk(path);
      }
    }
  }

  /** Changes may have been missed: compare every open file with the disk. */
  resync(): void {
    for (const file of this.tabs.files) void this.checkDisk(file.path);
  }

  /** Follows a rename made from the file tree (or reported by the service for a live file). */
  moved(from: string, to: string): void {
    // A live document belongs to its path: the file is opened live again under the new one.
    const wasLive = [...this.live.keys()].filter((path) => isWithin(path, from));
    for (const path of wasLive) {
      this.live.get(path)?.destroy();
      this.live.delete(path);
    }
    const renamed = this.documents.move(from, to);
    if (this.shown) this.shown = movedPath(this.shown, from, to);
    this.dispatch({ type: "moved", from, to });
    const intelligence = this.deps.intelligence;
    // The language server knows the file by its URI: close the old name, open the new one.
    if (intelligence)
      for (const [old, next] of renamed) this.transact(next, { effects: intelligence.renamed(old, next) });
    for (const path of wasLive) void this.reopenLive(movedPath(path, from, to));
  }

  /** A delete made from the file tree: clean tabs close, unsaved ones say what happened. */
  deleted(path: string): void {
    for (const file of this.tabs.files) {
      if (!isWithin(file.path, path)) continue;
      if (this.documents.get(file.path)?.dirty && !this.live.has(file.path)) this.markDeleted(file.path);
      else this.close(file.path);
    }
  }

  /** The language and language-server extensions of a file's state (what every state of it carries). */
  private async extensionsFor(path: string): Promise<Extension> {
    const language = await loadLanguageFor(path);
    const intelligence = this.deps.intelligence?.extension(path) ?? [];
    return editorExtensions([language, intelligence], (this.deps.readOnly ?? false) || this.ended);
  }

  /** The file's live document, or null when it should open the classic way. */
  private async openLive(path: string): Promise<LiveDocument | null> {
    if (!this.deps.openLive) return null;
    try {
      return await this.deps.openLive(path);
    } catch (error) {
      if (error instanceof LiveDocumentError && error.reason === "access") throw error;
      return null;
    }
  }

  /** Shows `live` in the file's tab: a state bound to it, starting from its text. */
  private startLive(path: string, live: LiveDocument, extensions: Extension, text: string): void {
    const previous = this.documents.get(path)?.state.selection.main;
    const head = Math.min(previous?.head ?? 0, text.length);
    const doc = this.documents.create(path, text, undefined, [extensions, live.extension()]);
    doc.state = doc.state.update({ selection: { anchor: head } }).state;
    this.live.set(path, live);
    live.bind({
      saved: (saved) => this.dispatch({ type: "update", path, changes: { dirty: !saved } }),
      closed: (note) => this.liveClosed(path, live, note),
      lost: (error) => this.liveLost(path, live, error),
    });
    this.dispatch({ type: "update", path, changes: { live: true } });
    if (this.shown === path) this.show(path);
    else this.bindHiddenLive();
  }

  /** Opens the file live again (its copy was from an earlier load, or it moved). */
  private async reopenLive(path: string): Promise<void> {
    const old = this.live.get(path);
    old?.destroy();
    this.live.delete(path);
    try {
      const [extensions, live] = await Promise.all([this.extensionsFor(path), this.openLive(path)]);
      if (!this.documents.get(path) || this.live.has(path)) return live?.destroy();
      if (live) this.startLive(path, live, extensions, live.text.toString());
      else this.detachLive(path, extensions);
    } catch (error) {
      if (!this.deps.sessionExpired(error))
        this.deps.showError(`Could not reopen ${path}: ${errorMessage(error)}`);
    }
  }

  /** The file stays open with its text, the classic way (Save writes it). */
  private detachLive(path: string, extensions: Extension): void {
    const doc = this.documents.get(path);
    if (!doc) return;
    const state = EditorState.create({ doc: doc.state.doc, selection: doc.state.selection, extensions });
    this.documents.update(path, state);
    this.dispatch({ type: "update", path, changes: { live: false } });
    if (this.shown === path) this.show(path);
  }

  private liveClosed(path: string, live: LiveDocument, note: Extract<CollabNote, { type: "closed" }>): void {
    if (this.live.get(path) !== live) return;
    if (note.reason === "renamed" && note.to) {
      this.moved(path, note.to);
      return;
    }
    live.destroy();
    this.live.delete(path);
    void this.extensionsFor(path).then((extensions) => {
      this.detachLive(path, extensions);
      if (note.reason === "deleted") {
        // What the tab shows is on no disk now: Save would write it back.
        const doc = this.documents.get(path);
        if (doc) this.documents.markSaved(path, Text.empty, undefined);
        this.dispatch({ type: "update", path, changes: { dirty: doc?.dirty ?? false } });
        this.markDeleted(path);
      } else this.deps.showError(`${path}: ${note.message}`);
    });
  }

  private liveLost(path: string, live: LiveDocument, error: LiveDocumentError): void {
    if (this.live.get(path) !== live) return;
    if (error.reason === "stale-copy") return void this.reopenLive(path);
    live.destroy();
    this.live.delete(path);
    void this.extensionsFor(path).then((extensions) => this.detachLive(path, extensions));
    if (error.reason !== "access") this.deps.showError(`${path} is no longer shared: ${error.message}`);
  }

  /**
   * Live files whose state is not in the view take others' changes here (the view plugin does
   * it for the shown one).
   */
  private bindHiddenLive(): void {
    for (const [path, live] of this.live) {
      const shown =
        this.view !== null && this.shown === path && this.view.state === this.documents.get(path)?.state;
      live.setHidden(shown ? null : (changes: ChangeSpec[]) => this.applyRemote(path, live, changes));
    }
  }

  private applyRemote(path: string, live: LiveDocument, changes: ChangeSpec[]): void {
    const doc = this.documents.get(path);
    if (!doc) return;
    const spec = { changes, annotations: [live.remoteAnnotation(), Transaction.addToHistory.of(false)] };
    this.record(path, doc.state.update(spec).state);
  }

  private async checkDisk(path: string): Promise<void> {
    const doc = this.documents.get(path);
    if (!doc || this.live.has(path)) return;
    if (doc.saving || doc.checking) {
      doc.recheck = true;
      return;
    }
    doc.checking = true;
    try {
      const file = await this.deps.files.read(path);
      if (this.documents.get(path) !== doc || file.kind !== "text") return;
      const notice = this.tabs.files.find((f) => f.path === path)?.notice;
      if (notice === "deleted-on-disk") this.dispatch({ type: "update", path, changes: { notice: null } });
      const reaction = diskReaction(doc, file.version);
      if (reaction === "reload") {
        this.takeDisk(path, file.content, file.version);
      } else if (reaction === "ask") {
        doc.diskVersion = file.version;
        this.dispatch({ type: "update", path, changes: { notice: "changed-on-disk" } });
      }
    } catch (error) {
      if (errorCode(error) === "NOT_FOUND") this.markDeleted(path);
    } finally {
      doc.checking = false;
      this.recheckIfAsked(path, doc);
    }
  }

  private recheckIfAsked(path: string, doc: { recheck: boolean }): void {
    if (!doc.recheck || this.documents.get(path) !== doc) return;
    doc.recheck = false;
    void this.checkDisk(path);
  }

  private takeDisk(path: string, content: string, version: string): void {
    const doc = this.documents.get(path);
    if (!doc) return;
    this.transact(path, { changes: { from: 0, to: doc.state.doc.length, insert: content } });
    this.documents.markSaved(path, doc.state.doc, version);
    this.dispatch({ type: "update", path, changes: { dirty: doc.dirty, notice: null } });
  }

  private markDeleted(path: string): void {
    const doc = this.documents.get(path);
    if (doc) doc.diskVersion = undefined;
    this.dispatch({ type: "update", path, changes: { notice: "deleted-on-disk" } });
  }

  private dispatch(action: OpenFilesAction): void {
    const next = openFilesReducer(this.tabs, action);
    if (next === this.tabs) return;
    this.tabs = next;
    for (const listener of this.listeners) listener();
  }

  private record(path: string, state: EditorState): void {
    const textChanged = this.documents.get(path)?.state.doc !== state.doc;
    // A live file's tab is "dirty" while the disk has not caught up, as the service says.
    if (this.documents.update(path, state) && !this.live.has(path) && !this.ended) {
      this.dispatch({ type: "update", path, changes: { dirty: this.documents.get(path)?.dirty ?? false } });
    }
    if (textChanged) for (const listener of this.textListeners) listener(path);
  }
}
