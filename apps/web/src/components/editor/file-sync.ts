import type { EditorState, Extension, Transaction, TransactionSpec } from "@codemirror/state";
import type { ReadResult, WriteResult } from "@coder/protocol";
import type { LiveDocument } from "./collab/live-document";
import type { FileDocuments } from "./file-documents";
import type { OpenFile } from "./open-files";

/** The two file calls the editor makes, bound to its workspace. */
export interface FilesApi {
  read(path: string): Promise<ReadResult>;
  write(path: string, content: string, expectedVersion: string | undefined): Promise<WriteResult>;
}

/**
 * How one open file keeps in step with the disk and the others: live (the service's shared
 * document, written to disk by the service) or saved (load, edit, Save with a version check).
 * The editor keeps the tabs and the view and leaves every syncing decision to the file's FileSync.
 */
export interface FileSync {
  /** Typing that neither the disk nor the service got (handed back when access ends). */
  readonly unsaved: boolean;
  /** Whether the tab may close now; asks the person when that would lose edits. */
  mayClose(): boolean;
  /** Writes the text to disk; `overwrite` skips the check that the disk did not change since. */
  save(overwrite: boolean): Promise<void>;
  /** Replaces the text with the disk's. */
  reload(): Promise<void>;
  /** Keeps the edits over a change on disk: the next save replaces it. */
  keepMine(): void;
  /** The file on disk changed, or may have (changes were missed). */
  diskChanged(): Promise<void>;
  /** The file feed says the file is gone. */
  diskDeleted(): void;
  /** Deleted from the file tree: true when the tab stays open (it holds edits, and says so). */
  keepsTabWhenDeleted(): boolean;
  /** The file (or a folder above it) is now at `to`. */
  moved(to: string): void;
  /** The text now differs from what was last saved, or matches it again. */
  dirtyChanged(): void;
  /** A change made to the file's state while the view does not show it. */
  hiddenEdit(transaction: Transaction): void;
  /** Whether the view shows the file's state (else changes from others go to the state here). */
  setShown(shown: boolean): void;
  /** Where the cursor of the person with this presence id is in the text, or null. */
  cursorOf(presenceId: string): number | null;
  /** Calls `listener` whenever others' cursors change; returns the stop. */
  onCursors(listener: () => void): () => void;
  /** Access ended: nothing more is synced (the editor turns the file read-only). */
  endAccess(): void;
  /** The tab closed. */
  dispose(): void;
}

/** What a file's syncing says on its tab. */
type TabUpdate = Partial<Pick<OpenFile, "dirty" | "saving" | "notice" | "live">>;

/** A file loaded for a tab, not yet shown: what the tab says about it and how it starts syncing. */
export interface LoadedFile {
  kind: NonNullable<OpenFile["kind"]>;
  size: number;
  /** Puts the text (if any) into the file's state, with `extensions`, and starts syncing it. */
  start(extensions: Extension): FileSync;
  /** The tab closed or was opened again meanwhile. */
  discard(): void;
}

/** What a FileSync may do to its file in the editor. */
export interface FileSyncHost {
  readonly documents: FileDocuments;
  readonly files: FilesApi;
  /** Access ended for good: nothing can be typed or saved. */
  readonly accessEnded: boolean;
  /** Opens a text file's live document; absent where there is no collaboration. */
  readonly openLive?: (path: string) => Promise<LiveDocument>;
  confirm(message: string): boolean;
  showError(message: string): void;
  /** Handles an error that means the session is gone; returns true if it did. */
  sessionExpired(error: unknown): boolean;
  /** The language and language-server extensions every state of the file carries. */
  extensionsFor(path: string): Promise<Extension>;
  tabOf(path: string): OpenFile | undefined;
  updateTab(path: string, changes: TabUpdate): void;
  /** Applies a change to the file's text, through the view when it shows the file. */
  transact(path: string, spec: TransactionSpec): void;
  /** Stores a state made outside the view. */
  record(path: string, state: EditorState): void;
  /** The file's state was replaced: show the new one if the file is showing. */
  stateReplaced(path: string): void;
  syncOf(path: string): FileSync | undefined;
  /** From now on `sync` keeps the file in step. */
  setSync(path: string, sync: FileSync): void;
  /** A rename reported by the service. */
  moved(from: string, to: string): void;
}
