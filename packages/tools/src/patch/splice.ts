import type { DiffLine } from "./types";

/** Where a hunk applies: `at` is the file line its old lines start on. */
export interface Placement {
  at: number;
  lines: readonly DiffLine[];
}

/** The old side of a hunk: the lines it keeps and removes, in order. */
export function oldSide(lines: readonly DiffLine[]): string[] {
  return lines.filter((l) => l.op !== "+").map((l) => l.text);
}

/**
 * The file's lines with each placed hunk applied (placements in file order, not overlapping).
 * Kept lines come from the file, not the patch, so a loosely matched context line (other trailing
 * spaces, other indentation) stays exactly as the file had it.
 */
export function applyPlacements(original: readonly string[], placements: readonly Placement[]): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const { at, lines } of placements) {
    for (; cursor < at; cursor++) out.push(original[cursor] as string);
    for (const line of lines) {
      if (line.op === "+") out.push(line.text);
      else {
        if (line.op === " ") out.push(original[cursor] as string);
        cursor++;
      }
    }
  }
  for (; cursor < original.length; cursor++) out.push(original[cursor] as string);
  return out;
}

export function countOps(lines: readonly DiffLine[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of lines) {
    if (line.op === "+") additions++;
    else if (line.op === "-") deletions++;
  }
  return { additions, deletions };
}
