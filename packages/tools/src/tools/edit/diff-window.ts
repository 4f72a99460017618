import { commonPrefix, commonSuffix } from "../../files/common-ends";
import { type TextDiff, unifiedDiff } from "../../files/diff";

/** Unchanged lines kept around the change: the diff's own context (3) plus one to spare. */
const MARGIN_LINES = 4;

/**
 * The unified diff of an edit, computed on the changed region only. An edit changes a small part
 * of what may be a long file; diffing all of it would cost more than the edit itself, so the
 * common head and tail are cut off (keeping a margin of context) and the hunk headers shifted back
 * to the file's line numbers.
 */
export function editDiff(shown: string, before: string, after: string, created: boolean): TextDiff {
  const head = headLines(before, after);
  const tail = tailLines(before.slice(head.chars), after.slice(head.chars));
  const window = unifiedDiff(
    shown,
    before.slice(head.chars, before.length - tail),
    after.slice(head.chars, after.length - tail),
    created,
  );
  if (head.lines === 0) return window;
  const diff = window.diff.replace(
    /^@@ -(\d+)((?:,\d+)? \+)(\d+)/gm,
    (_, oldStart: string, middle: string, newStart: string) =>
      `@@ -${Number(oldStart) + head.lines}${middle}${Number(newStart) + head.lines}`,
  );
  return { ...window, diff };
}

/** Whole lines the two texts share at their start, less the margin: their count and length. */
function headLines(a: string, b: string): { lines: number; chars: number } {
  let at = commonPrefix(a, b);
  at = a.lastIndexOf("\n", at - 1) + 1;
  for (let k = 0; k < MARGIN_LINES && at > 0; k++) at = at < 2 ? 0 : a.lastIndexOf("\n", at - 2) + 1;
  let lines = 0;
  for (let i = a.indexOf("\n"); i !== -1 && i < at; i = a.indexOf("\n", i + 1)) lines++;
  return { lines, chars: at };
}

/** Length of the whole lines the two texts share at their end, less the margin. */
function tailLines(a: string, b: string): number {
  let length = commonSuffix(a, b);
  // Keep whole lines only: the cut must fall just after a line break.
  const cut = a.length - length;
  const lineEnd = a.indexOf("\n", cut - 1);
  length = lineEnd === -1 ? 0 : a.length - (lineEnd + 1);
  for (let k = 0; k < MARGIN_LINES && length > 0; k++) {
    const next = a.indexOf("\n", a.length - length);
    length = next === -1 ? 0 : a.length - (next + 1);
  }
  return length;
}
