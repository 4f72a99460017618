import { diffArrays } from "diff";
import { commonPrefix, commonSuffix } from "./common-ends";

/** Diffs that take longer than this make the merge give up (the change is then judged stale). */
const DIFF_TIMEOUT_MS = 1000;

/** Lines of `base` from `from` to `to` (0-based, end exclusive) replaced by `lines`. */
interface Hunk {
  from: number;
  to: number;
  lines: string[];
}

/** A place where the agent's change and another's meet: in the base's lines and in the current text's. */
export interface MergeConflict {
  base: { from: number; to: number };
  current: { from: number; to: number };
}

export type MergeResult =
  | { ok: true; text: string }
  | { ok: false; conflicts: MergeConflict[] }
  /** The texts differ too much to align in time. */
  | { ok: false; conflicts: null };

/** A text's lines, each with its own line break (the last may have none). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Where each line of `text` starts, and its length last: line `i` is `text.slice(starts[i], starts[i + 1])`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1 && at + 1 < text.length; at = text.indexOf("\n", at + 1))
    starts.push(at + 1);
  if (text.length > 0) starts.push(text.length);
  return starts;
}

/** The first index whose value is at least `value` in ascending `values`. */
function firstAtLeast(values: number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The hunks turning `base` (whose line starts are `starts`) into `other`. Only the lines between
 * the whole lines both share at their start and at their end are split and diffed: a change or
 * two in a long file (the usual case) costs a few native comparisons, not a diff of every line.
 */
function hunks(base: string, starts: number[], other: string): Hunk[] | undefined {
  const prefix = commonPrefix(base, other);
  // Whole lines within the common start, each with its line break (a last line without one may
  // go on in the other text).
  let head = firstAtLeast(starts, prefix + 1) - 1;
  if (head > 0 && base[(starts[head] as number) - 1] !== "\n") head--;
  const headChars = starts[head] as number;
  const suffix = commonSuffix(base, other, headChars);
  // Whole lines within the common end: a line starting after the end's first character begins
  // after a line break both texts share.
  const tail = Math.max(head, firstAtLeast(starts, base.length - suffix + 1));
  const tailChars = Math.min(starts[tail] ?? base.length, base.length);
  const shift = other.length - base.length;
  const parts = diffArrays(
    splitLines(base.slice(headChars, tailChars)),
    splitLines(other.slice(headChars, tailChars + shift)),
    { timeout: DIFF_TIMEOUT_MS },
  );
  if (!parts) return undefined;
  const found: Hunk[] = [];
  let at = head;
  let open: Hunk | undefined;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (open) found.push(open);
      open = undefined;
      at += part.count ?? part.value.length;
      continue;
    }
    open ??= { from: at, to: at, lines: [] };
    if (part.removed) {
      at += part.count ?? part.value.length;
      open.to = at;
    } else open.lines.push(...part.value);
  }
  if (open) found.push(open);
  return found;
}

/** Whether two hunks touch the same lines (two insertions at one place do too: their order is unknown). */
function overlap(a: Hunk, b: Hunk): boolean {
  if (a.from === a.to && b.from === b.to) return a.from === b.from;
  return a.from < b.to && b.from < a.to;
}

function sameHunk(a: Hunk, b: Hunk): boolean {
  return a.from === b.from && a.to === b.to && a.lines.join("") === b.lines.join("");
}

/**
 * Line-based three-way merge: the agent turned `base` into `changed` while others turned it into
 * `current`. Their changes apply together when no line changed on one side was changed on the
 * other (neighbouring lines are fine; the same change on both sides counts once); otherwise the
 * conflicts say where, in the base and in the current text.
 */
export function mergeThreeWay(base: string, changed: string, current: string): MergeResult {
  const starts = lineStarts(base);
  const mine = hunks(base, starts, changed);
  const theirs = hunks(base, starts, current);
  if (!mine || !theirs) return { ok: false, conflicts: null };

  const conflicts: MergeConflict[] = [];
  const applied: Hunk[] = [...theirs];
  for (const hunk of mine) {
    const met = theirs.filter((other) => overlap(hunk, other));
    if (met.length === 0) applied.push(hunk);
    else if (!(met.length === 1 && met[0] && sameHunk(hunk, met[0])))
      conflicts.push(conflictAt(hunk, met, theirs));
  }
  if (conflicts.length > 0) return { ok: false, conflicts };

  // Pure insertions before a replacement starting at the same line.
  applied.sort((a, b) => a.from - b.from || a.to - b.to);
  const lineAt = (line: number) => starts[line] ?? base.length;
  const out: string[] = [];
  let at = 0;
  for (const hunk of applied) {
    out.push(base.slice(lineAt(at), lineAt(hunk.from)), ...hunk.lines);
    at = hunk.to;
  }
  out.push(base.slice(lineAt(at)));
  return { ok: true, text: out.join("") };
}

/** The lines `hunk` and the hunks it met cover, in the base and where they are now. */
function conflictAt(hunk: Hunk, met: Hunk[], theirs: Hunk[]): MergeConflict {
  const from = Math.min(hunk.from, ...met.map((h) => h.from));
  const to = Math.max(hunk.to, ...met.map((h) => h.to));
  // Lines before a base line move by what the others' hunks ending at or before it added.
  const shift = (line: number, includeInsertionsThere: boolean) =>
    theirs
      .filter((h) => h.to < line || (h.to === line && (includeInsertionsThere || h.from < line)))
      .reduce((sum, h) => sum + h.lines.length - (h.to - h.from), line);
  return { base: { from, to }, current: { from: shift(from, false), to: shift(to, true) } };
}
