import { Chunk } from "@codemirror/merge";
import type { Text } from "@codemirror/state";

/**
 * One run of the editor's lines that differ from git's version (1-based, inclusive). `deleted`
 * marks the line below where lines were removed (the last line when they were removed at the end).
 */
export interface LineChange {
  kind: "added" | "changed" | "deleted";
  fromLine: number;
  toLine: number;
}

/**
 * Past this much work the diff gives up on precision rather than block the page on a huge,
 * very different file (@codemirror/merge then falls back to a coarser diff).
 */
const DIFF_LIMITS = { scanLimit: 5000, timeout: 100 };

/** The runs of `doc` that differ from `base` (git's index version), as @codemirror/merge finds them. */
export function changeChunks(base: Text, doc: Text): readonly Chunk[] {
  return Chunk.build(base, doc, DIFF_LIMITS);
}

/** The lines of `doc` added, changed or deleted relative to `base` (git's index version). */
export function lineChanges(base: Text, doc: Text): LineChange[] {
  return changeChunks(base, doc).map((chunk) => {
    const fromLine = doc.lineAt(chunk.fromB).number;
    if (chunk.fromB === chunk.toB) return { kind: "deleted", fromLine, toLine: fromLine };
    const toLine = doc.lineAt(chunk.endB).number;
    return { kind: chunk.fromA === chunk.toA ? "added" : "changed", fromLine, toLine };
  });
}
