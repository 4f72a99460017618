import type { Chunk } from "@codemirror/merge";
import type { ChangeSpec, Text } from "@codemirror/state";
import { changeChunks } from "./line-changes";

/** One run of lines that differ from git's index: what the index has there, and where it is now. */
export interface Hunk {
  /** The index's lines there, without the last line break ("" when lines were only added). */
  indexLines: string;
  /** The run's first and last line in the editor's text (1-based; a deletion: the line below it). */
  fromLine: number;
  toLine: number;
  chunk: Chunk;
}

/** The hunk whose marker is on `line` of `doc`, compared with `base` (git's index), or null. */
export function hunkAtLine(base: Text, doc: Text, line: number): Hunk | null {
  for (const chunk of changeChunks(base, doc)) {
    const fromLine = doc.lineAt(chunk.fromB).number;
    const toLine = doc.lineAt(chunk.endB).number;
    if (line < fromLine || line > toLine) continue;
    const indexLines = base.sliceString(chunk.fromA, Math.max(chunk.fromA, chunk.toA - 1));
    return { indexLines, fromLine, toLine, chunk };
  }
  return null;
}

/**
 * The change that puts the index's lines back in place of the hunk's (what @codemirror/merge's
 * rejectChunk does), leaving every other line of `doc` as it is.
 */
export function revertHunk(base: Text, doc: Text, hunk: Hunk): ChangeSpec {
  const { chunk } = hunk;
  let insert = base.sliceString(chunk.fromA, Math.max(chunk.fromA, chunk.toA - 1));
  if (chunk.fromA !== chunk.toA && chunk.toB <= doc.length) insert += "\n";
  return { from: chunk.fromB, to: Math.min(doc.length, chunk.toB), insert };
}
