import { errorCode, errorMessage, isConflict } from "../../lib/errors/error-message";
import { diskReaction } from "./file-documents";
import type { FileSync, FileSyncHost, LoadedFile } from "./file-sync";

/**
 * The classic way: the file is read once, edited here, and written by Save with the version it
 * was read at (a changed disk is a conflict the person settles); changes on disk reload a clean
 * tab and ask before touching unsaved edits. Binary and oversized files sync nothing but notices.
 */
export class SavedFileSync implements FileSync {
  constructor(
    private readonly host: FileSyncHost,
    private path: string,
  ) {}

  /** Reads the file for its tab. */
  static async load(host: FileSyncHost, path: string): Promise<LoadedFile> {
    const file = await host.files.read(path);
    return {
      kind: file.kind,
      size: file.size,
      start: (extensions) => {
        if (file.kind === "text") host.documents.create(path, file.content, file.version, extensions);
        return new SavedFileSync(host, path);
      },
      discard: () => {},
    };
  }

  get unsaved(): boolean {
    return this.host.documents.get(this.path)?.dirty ?? false;
  }

  mayClose(): boolean {
    const doc = this.host.documents.get(this.path);
    return (
      !doc?.dirty ||
      this.host.accessEnded ||
      this.host.confirm(`Close ${this.path} without saving your changes?`)
    );
  }

  async save(overwrite: boolean): Promise<void> {
    const { host, path } = this;
    const doc = host.documents.get(path);
    if (!doc || doc.saving || host.accessEnded) return;
    const sent = doc.state.doc;
    doc.saving = true;
    host.updateTab(path, { saving: true });
    try {
      const result = await host.files.write(path, sent.toString(), overwrite ? undefined : doc.version);
      host.documents.markSaved(path, sent, result.version);
      host.updateTab(path, { dirty: doc.dirty, notice: null });
    } catch (error) {
      if (isConflict(error)) {
        host.updateTab(path, { notice: "save-conflict" });
      } else if (!host.sessionExpired(error)) {
        host.showError(`Could not save ${path}: ${errorMessage(error)}`);
      }
    } finally {
      doc.saving = false;
      host.updateTab(path, { saving: false });
      this.recheckIfAsked(path, doc);
    }
  }

  async reload(): Promise<void> {
    const { host, path } = this;
    try {
      const file = await host.files.read(path);
      if (file.kind === "text") this.takeDisk(path, file.content, file.version);
    } catch (error) {
      if (!host.sessionExpired(error)) host.showError(`Could not reload ${path}: ${errorMessage(error)}`);
    }
  }

  keepMine(): void {
    const doc = this.host.documents.get(this.path);
    if (!doc) return;
    doc.version = doc.diskVersion;
    doc.diskVersion = undefined;
    this.host.updateTab(this.path, { notice: null });
  }

  async diskChanged(): Promise<void> {
    const { host, path } = this;
    const doc = host.documents.get(path);
    if (!doc) return;
    if (doc.saving || doc.checking) {
      doc.recheck = true;
      return;
    }
    doc.checking = true;
    try {
      const file = await host.files.read(path);
      if (host.documents.get(path) !== doc || file.kind !== "text") return;
      if (host.tabOf(path)?.notice === "deleted-on-disk") host.updateTab(path, { notice: null });
      const reaction = diskReaction(doc, file.version);
      if (reaction === "reload") {
        this.takeDisk(path, file.content, file.version);
      } else if (reaction === "ask") {
        doc.diskVersion = file.version;
        host.updateTab(path, { notice: "changed-on-disk" });
      }
    } catch (error) {
      if (errorCode(error) === "NOT_FOUND") this.markDeleted(path);
    } finally {
      doc.checking = false;
      this.recheckIfAsked(path, doc);
    }
  }

  diskDeleted(): void {
    this.markDeleted(this.path);
  }

  keepsTabWhenDeleted(): boolean {
    if (!this.unsaved) return false;
    this.diskDeleted();
    return true;
  }

  moved(to: string): void {
    this.path = to;
  }

  dirtyChanged(): void {
    // After access ended nothing waits to be saved: it cannot be.
    if (!this.host.accessEnded)
      this.host.updateTab(this.path, { dirty: this.host.documents.get(this.path)?.dirty ?? false });
  }

  hiddenEdit(): void {}

  setShown(): void {}

  cursorOf(): number | null {
    return null;
  }

  onCursors(): () => void {
    return () => {};
  }

  endAccess(): void {}

  dispose(): void {}

  private recheckIfAsked(path: string, doc: { recheck: boolean }): void {
    if (!doc.recheck || this.host.documents.get(path) !== doc) return;
    doc.recheck = false;
    void this.diskChanged();
  }

  private takeDisk(path: string, content: string, version: string): void {
    const doc = this.host.documents.get(path);
    if (!doc) return;
    this.host.transact(path, { changes: { from: 0, to: doc.state.doc.length, insert: content } });
    this.host.documents.markSaved(path, doc.state.doc, version);
    this.host.updateTab(path, { dirty: doc.dirty, notice: null });
  }

  private markDeleted(path: string): void {
    const doc = this.host.documents.get(path);
    if (doc) doc.diskVersion = undefined;
    this.host.updateTab(path, { notice: "deleted-on-disk" });
  }
}
