import { LSPPlugin, Workspace, type WorkspaceFile } from "@codemirror/lsp-client";
import type { ChangeSet, Text, TransactionSpec } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { pathForUri } from "./document-uri";
import type { EditorHost } from "./editor-host";
import { changesBetween } from "./text-changes";

class TabFile implements WorkspaceFile {
  constructor(
    readonly uri: string,
    readonly path: string,
    readonly languageId: string,
    public version: number,
    /** The text the server last received. */
    public doc: Text,
    private readonly host: EditorHost,
  ) {}

  getView(): EditorView | null {
    return this.host.viewOf(this.path);
  }
}

interface FileUpdate {
  file: WorkspaceFile;
  prevDoc: Text;
  changes: ChangeSet;
}

/**
 * The language client's view of the editor's tabs. A file is opened on the server when its tab
 * first shows it and closed when the tab closes, not when the single editor view switches to
 * another tab. While the socket is down nothing is sent: on reconnecting, every file is opened
 * again with its current text.
 */
export class EditorWorkspace extends Workspace {
  files: TabFile[] = [];
  private live = false;
  private version = 0;

  constructor(
    client: ConstructorParameters<typeof Workspace>[0],
    private readonly host: EditorHost,
  ) {
    super(client);
  }

  fileAt(path: string): TabFile | undefined {
    return this.files.find((file) => file.path === path);
  }

  syncFiles(): readonly FileUpdate[] {
    if (!this.live) return [];
    const updates: FileUpdate[] = [];
    for (const file of this.files) {
      const current = this.host.stateOf(file.path)?.doc;
      if (!current || current === file.doc) continue;
      const plugin = this.pluginOf(file);
      // The view's own record of edits is exact; edits made while the tab was hidden are diffed.
      const changes =
        plugin && plugin.syncedDoc === file.doc ? plugin.unsyncedChanges : changesBetween(file.doc, current);
      updates.push({ file, prevDoc: file.doc, changes });
      file.doc = current;
      file.version = ++this.version;
      plugin?.clear();
    }
    return updates;
  }

  openFile(uri: string, languageId: string, view: EditorView): void {
    if (this.getFile(uri)) return;
    const path = pathForUri(uri);
    if (!path) return;
    const file = new TabFile(uri, path, languageId, ++this.version, view.state.doc, this.host);
    this.files.push(file);
    if (this.live) this.client.didOpen(file);
  }

  /** A view let go of the file because another tab is shown: the file stays open. */
  closeFile(): void {}

  /** The tab closed (or the file was renamed away): the server forgets the file. */
  forget(path: string): void {
    const file = this.fileAt(path);
    if (!file) return;
    this.files = this.files.filter((f) => f !== file);
    if (this.live) this.client.didClose(file.uri);
  }

  override connected(): void {
    this.live = true;
    for (const file of this.files) {
      file.doc = this.host.stateOf(file.path)?.doc ?? file.doc;
      file.version = ++this.version;
      this.pluginOf(file)?.clear();
      this.client.didOpen(file);
    }
  }

  override disconnected(): void {
    this.live = false;
  }

  override updateFile(uri: string, update: TransactionSpec): void {
    const path = pathForUri(uri);
    if (path) this.host.transact(path, update);
  }

  override async displayFile(uri: string): Promise<EditorView | null> {
    const path = pathForUri(uri);
    return path ? this.host.reveal(path) : null;
  }

  private pluginOf(file: TabFile): LSPPlugin | null {
    const view = file.getView();
    const plugin = view ? LSPPlugin.get(view) : null;
    return plugin && plugin.uri === file.uri ? plugin : null;
  }
}
