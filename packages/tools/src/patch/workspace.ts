import { type DecodedText, decodeText, encodeText } from "../edit/line-endings";
import { ToolError } from "../framework/types";
import type { FileWrite, PatchSource, PlannedChange } from "./types";

/** A file of the patch as located in the workspace. */
export interface PatchFile {
  absolute: string;
  display: string;
}

interface Entry {
  original: string | null;
  current: DecodedText | null;
}

/**
 * The workspace as the patch leaves it, held in memory: files are read once through the source,
 * later sections see earlier sections' changes, and nothing touches the disk. `writes()` is the
 * difference to commit.
 */
export class PatchWorkspace {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly source: PatchSource) {}

  locate(path: string): Promise<PatchFile> {
    return this.source.locate(path);
  }

  /** The file's current text (LF, with its line-ending style), or null when it does not exist. */
  async get(file: PatchFile): Promise<DecodedText | null> {
    let entry = this.entries.get(file.absolute);
    if (!entry) {
      const original = await this.source.read(file.absolute);
      entry = { original, current: original === null ? null : decodeText(original) };
      this.entries.set(file.absolute, entry);
    }
    return entry.current;
  }

  /** Records the file's new text (read it with `get` first), or null to delete it. */
  set(file: PatchFile, text: DecodedText | null): void {
    const entry = this.entries.get(file.absolute);
    if (!entry) throw new Error(`patch workspace: ${file.display} was set before it was read`);
    entry.current = text;
  }

  /**
   * Records `file`'s new text at `target`: in place (modified) or moved there (renamed), refusing
   * to overwrite an existing file. Both patch formats end an update this way.
   */
  async place(
    file: PatchFile,
    target: PatchFile,
    updated: DecodedText,
    counts: { additions: number; deletions: number },
    verb: "move" | "rename",
  ): Promise<PlannedChange> {
    if (target.absolute === file.absolute) {
      this.set(file, updated);
      return { path: file.display, operation: "modified", content: this.encoded(file), ...counts };
    }
    if ((await this.get(target)) !== null) {
      throw new ToolError(
        "conflict",
        `cannot ${verb} ${file.display} to ${target.display}: ${target.display} already exists`,
      );
    }
    this.set(file, null);
    this.set(target, updated);
    return {
      path: file.display,
      operation: "renamed",
      newPath: target.display,
      content: this.encoded(target),
      ...counts,
    };
  }

  /** The file's current text as it would be written: its own line endings and BOM. */
  encoded(file: PatchFile): string | null {
    const current = this.entries.get(file.absolute)?.current ?? null;
    return current === null ? null : encodeText(current.text, current.eol, current.bom);
  }

  /** Every file whose text differs from the disk now, with what to write. */
  writes(): FileWrite[] {
    const writes: FileWrite[] = [];
    for (const [absolute, { original, current }] of this.entries) {
      const content = current === null ? null : encodeText(current.text, current.eol, current.bom);
      if (content !== original) writes.push({ absolute, content, original });
    }
    return writes;
  }
}
