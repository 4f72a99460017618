import { type EditorState, type Extension, StateEffect, type TransactionSpec } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { FileChange } from "@coder/protocol";
import { errorMessage } from "../../lib/errors/error-message";
import { isWithin, movedPath, normalizePath } from "../../lib/paths/workspace-path";
import type { UnsavedText } from "../access/unsaved-at-end";
import type { LiveDocument } from "./collab/live-document";
import { type EditorCommand, runEditorCommand } from "./editor-commands";
import { editorExtensions, noEditing } from "./editor-extensions";
import { FileDocuments } from "./file-documents";
import type { FileSync, FileSyncHost, FilesApi, LoadedFile } from "./file-sync";
import type { GitIndexTexts } from "./git-gutter/index-texts";
import { loadLanguageFor } from "./languages";
import { LiveFileSync } from "./live-file-sync";
import type { EditorHost } from "./lsp/editor-host";
import type { LanguageIntelligence } from "./lsp/language-intelligence";
import { noOpenFiles, type OpenFiles, type OpenFilesAction, openFilesReducer } from "./open-files";
import { previewKindOf } from "./preview-kind";
import { SavedFileSync } from "./saved-file-sync";

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
  /** Git's index version of the open files, for the gutter's change markers; without it, none. */
  gitGutter?: GitIndexTexts;
}

/**
 * The editor's behaviour, outside React: the tabs, each open file's state, and showing the active
 * file in the single CodeMirror view. How a file keeps in step with the disk and the others is its
 * FileSync's business (live or saved). It owns the tab list; React subscribes to it.
 */
export class EditorController implements EditorHost {
  readonly documents = new FileDocuments();
  private tabs: OpenFiles = noOpenFiles;
  private readonly listeners = new Set<() => void>();
  private readonly textListeners = new Set<(path: string) => void>();
  private view: EditorView | null = null;
  /** The path whose state the view holds. */
  private shown: string | null = null;
  /** How each tab's file keeps in step, by path (saved until it opens live). */
  private readonly syncs = new Map<string, FileSync>();
  /** Access ended (link revoked or expired, workspace deleted): nothing can be typed or saved. */
  private ended = false;
  /** What a file's sync may do here. */
  private readonly host: FileSyncHost;

  constructor(private readonly deps: EditorControllerDeps) {
    deps.intelligence?.bind(this);
    deps.gitGutter?.bind(this);
    const controller = this;
    this.host = {
      documents: this.documents,
      files: deps.files,
      get accessEnded() {
        return controller.ended;
      },
      openLive: deps.openLive,
      confirm: deps.confirm,
      showError: deps.showError,
      sessionExpired: deps.sessionExpired,
      extensionsFor: (path) => this.extensionsFor(path),
      tabOf: (path) => this.tabs.files.find((file) => file.path === path),
      updateTab: (path, changes) => this.dispatch({ type: "update", path, changes }),
      transact: (path, spec) => this.transact(path, spec),
      record: (path, state) => this.record(path, state),
      stateReplaced: (path) => (this.shown === path ? this.show(path) : this.bindHidden()),
      syncOf: (path) => this.syncs.get(path),
      setSync: (path, sync) => this.syncs.set(path, sync),
      moved: (from, to) => this.moved(from, to),
    };
  }

  get intelligence(): LanguageIntelligence | undefined {
    return this.deps.intelligence;
  }

  get gitIndexTexts(): GitIndexTexts | undefined {
    return this.deps.gitGutter;
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
      this.bindHidden();
    };
  }

  /** Puts the file's state into the view (after a tab switch, a load, or a rename). */
  show(path: string | null): void {
    const doc = path ? this.documents.get(path) : undefined;
    this.shown = doc ? path : null;
    const view = this.view;
    if (!view || !doc) {
      this.bindHidden();
      return;
    }
    if (view.state !== doc.state) {
      view.setState(doc.state);
      view.dispatch({ effects: EditorView.scrollIntoView(doc.state.selection.main.head, { y: "center" }) });
    } else {
      view.requestMeasure();
    }
    this.bindHidden();
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
    const sync = this.syncs.get(path);
    if (!sync) return () => {};
    let last: number | null = null;
    const reveal = () => {
      const at = sync.cursorOf(presenceId);
      const view = this.viewOf(path);
      if (at === null || at === last || !view) return;
      last = at;
      view.dispatch({ effects: EditorView.scrollIntoView(at, { y: "center" }) });
    };
    reveal();
    return sync.onCursors(reveal);
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
    if (!this.syncs.has(path)) this.syncs.set(path, new SavedFileSync(this.host, path));
    try {
      const [file, extensions] = await Promise.all([this.load(path), this.extensionsFor(path)]);
      const stillWanted = !this.documents.get(path) && this.tabs.files.some((f) => f.path === path);
      if (stillWanted) this.syncs.set(path, file.start(extensions));
      else file.discard();
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
    const sync = this.syncs.get(path);
    if (sync && !sync.mayClose()) return;
    sync?.dispose();
    this.syncs.delete(path);
    this.documents.close(path);
    this.deps.intelligence?.closed(path);
    this.deps.gitGutter?.closed(path);
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
      if (this.syncs.get(file.path)?.unsaved)
        unsaved.push({ path: file.path, text: doc.state.doc.toString() });
      this.transact(file.path, { effects: StateEffect.appendConfig.of(noEditing) });
    }
    for (const sync of [...this.syncs.values()]) sync.endAccess();
    this.dispatch({ type: "ended" });
    return unsaved;
  }

  /** Saves the file; without `overwrite`, refuses (and says so) if the disk changed since it was read. */
  async save(path: string, overwrite = false): Promise<void> {
    await this.syncs.get(path)?.save(overwrite);
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
      this.syncs.get(path)?.hiddenEdit(transaction);
      this.record(path, transaction.state);
    }
  }

  /** Replaces the text with the disk's, discarding unsaved edits (they stay in undo history). */
  async reload(path: string): Promise<void> {
    await this.syncs.get(path)?.reload();
  }

  /** Keeps the edits in the editor; the next save replaces what is on disk. */
  keepMine(path: string): void {
    this.syncs.get(path)?.keepMine();
  }

  /** Reacts to a batch from `files.changes`. */
  fileChanges(changes: readonly FileChange[]): void {
    for (const change of changes) {
      const path = normalizePath(change.path);
      if (change.type === "unlink" || change.type === "unlinkDir") {
        for (const file of this.tabs.files)
          if (isWithin(file.path, path)) this.syncs.get(file.path)?.diskDeleted();
      } else if (change.type !== "addDir") {
        void this.syncs.get(path)?.diskChanged();
      }
    }
  }

  /** Changes may have been missed: compare every open file with the disk. */
  resync(): void {
    for (const file of this.tabs.files) void this.syncs.get(file.path)?.diskChanged();
  }

  /** Follows a rename made from the file tree (or reported by the service for a live file). */
  moved(from: string, to: string): void {
    const moving = [...this.syncs].filter(([path]) => isWithin(path, from));
    for (const [path] of moving) this.syncs.delete(path);
    const renamed = this.documents.move(from, to);
    if (this.shown) this.shown = movedPath(this.shown, from, to);
    for (const [path, sync] of moving) {
      const next = movedPath(path, from, to);
      this.syncs.set(next, sync);
      sync.moved(next);
    }
    this.dispatch({ type: "moved", from, to });
    this.deps.gitGutter?.moved(from, to);
    const intelligence = this.deps.intelligence;
    // The language server knows the file by its URI: close the old name, open the new one.
    if (intelligence)
      for (const [old, next] of renamed) this.transact(next, { effects: intelligence.renamed(old, next) });
  }

  /** A delete made from the file tree: clean tabs close, unsaved ones say what happened. */
  deleted(path: string): void {
    for (const file of this.tabs.files) {
      if (isWithin(file.path, path) && !this.syncs.get(file.path)?.keepsTabWhenDeleted())
        this.close(file.path);
    }
  }

  /** The language and language-server extensions of a file's state (what every state of it carries). */
  private async extensionsFor(path: string): Promise<Extension> {
    const language = await loadLanguageFor(path);
    const intelligence = this.deps.intelligence?.extension(path) ?? [];
    const changes = this.deps.gitGutter?.extension(path) ?? [];
    return editorExtensions([language, intelligence, changes], (this.deps.readOnly ?? false) || this.ended);
  }

  /**
   * Reads the file once, the way it will sync: live when collaboration is there and the service
   * takes it, else (not text, too large, missing, no collaboration) the saved way.
   */
  private async load(path: string): Promise<LoadedFile> {
    return (await LiveFileSync.load(this.host, path)) ?? SavedFileSync.load(this.host, path);
  }

  /** A file whose state the view does not show takes others' changes through its sync. */
  private bindHidden(): void {
    for (const [path, sync] of this.syncs)
      sync.setShown(
        this.view !== null && this.shown === path && this.view.state === this.documents.get(path)?.state,
      );
  }

  private dispatch(action: OpenFilesAction): void {
    const next = openFilesReducer(this.tabs, action);
    if (next === this.tabs) return;
    this.tabs = next;
    for (const listener of this.listeners) listener();
  }

  private record(path: string, state: EditorState): void {
    const textChanged = this.documents.get(path)?.state.doc !== state.doc;
    if (this.documents.update(path, state)) this.syncs.get(path)?.dirtyChanged();
    if (textChanged) for (const listener of this.textListeners) listener(path);
  }
}
