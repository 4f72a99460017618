import { EditorState, type Extension, type Text } from "@codemirror/state";
import { movedPath } from "../../lib/paths/workspace-path";

/** One open text file: its editor state (text, undo history, selection) and what is on disk. */
export interface FileDocument {
  state: EditorState;
  /** The disk version this text was based on; `undefined` means save without a version check. */
  version: string | undefined;
  /** The text as last read from or written to disk; the tab is dirty when the state differs. */
  saved: Text;
  dirty: boolean;
  saving: boolean;
  /** A read to compare with the disk is in flight. */
  checking: boolean;
  /** A change on disk arrived during a save or a check: look again once it is done. */
  recheck: boolean;
  /** The disk version seen when a change was detected, for "keep mine". */
  diskVersion?: string;
}

/**
 * The EditorState of every open text file, keyed by path. One EditorView shows the active file;
 * swapping states in and out of it keeps each file's undo history.
 */
export class FileDocuments {
  private readonly docs = new Map<string, FileDocument>();

  create(path: string, content: string, version: string | undefined, extensions: Extension): FileDocument {
    const state = EditorState.create({ doc: content, extensions });
    const doc: FileDocument = {
      state,
      version,
      saved: state.doc,
      dirty: false,
      saving: false,
      checking: false,
      recheck: false,
    };
    this.docs.set(path, doc);
    return doc;
  }

  get(path: string): FileDocument | undefined {
    return this.docs.get(path);
  }

  /** Stores the state after an edit; returns true when the dirty flag flipped. */
  update(path: string, state: EditorState): boolean {
    const doc = this.docs.get(path);
    if (!doc) return false;
    doc.state = state;
    return this.refreshDirty(doc);
  }

  /** Records that `saved` is now on disk as `version`; the text may have moved on meanwhile. */
  markSaved(path: string, saved: Text, version: string | undefined): void {
    const doc = this.docs.get(path);
    if (!doc) return;
    doc.saved = saved;
    doc.version = version;
    doc.diskVersion = undefined;
    this.refreshDirty(doc);
  }

  close(path: string): void {
    this.docs.delete(path);
  }

  /** Re-keys documents after `from` (a file or a folder) was renamed to `to`; the moves made. */
  move(from: string, to: string): [string, string][] {
    const moves: [string, string][] = [];
    for (const [path, doc] of [...this.docs]) {
      const next = movedPath(path, from, to);
      if (next === path) continue;
      this.docs.delete(path);
      this.docs.set(next, doc);
      moves.push([path, next]);
    }
    return moves;
  }

  private refreshDirty(doc: FileDocument): boolean {
    // Text.eq compares lengths first, so typing in a large file stays cheap.
    const dirty = !doc.state.doc.eq(doc.saved);
    if (dirty === doc.dirty) return false;
    doc.dirty = dirty;
    return true;
  }
}

export type DiskReaction = "none" | "reload" | "ask";

/**
 * What to do when the file on disk may have changed: nothing if it is the version we hold
 * (our own save, for instance), reload a clean tab, and ask before touching unsaved edits.
 */
export function diskReaction(
  doc: Pick<FileDocument, "version" | "dirty">,
  diskVersion: string,
): DiskReaction {
  if (doc.version === diskVersion) return "none";
  return doc.dirty ? "ask" : "reload";
}
