import { type ChangeObject, diffChars, diffLines } from "diff";

/** One replacement in the old text: at UTF-16 offset `at`, remove `remove` units, insert `insert`. */
export interface TextEdit {
  at: number;
  remove: number;
  insert: string;
}

/** Runs of changed lines longer than this (UTF-16 units, each side) are replaced whole, not diffed by character. */
const CHAR_DIFF_LIMIT = 20_000;
/**
 * A run whose characters need more insertions and deletions than this is replaced whole: such a
 * diff (two unrelated lines, say) keeps only scattered characters, which would cut the document
 * into thousands of tiny Yjs items that every later update, merge and load pays for; and finding
 * it costs the square of its length. A rewritten sentence or a few words stay within it.
 */
function charEditLimit(from: string, to: string): number {
  return 64 + Math.ceil((from.length + to.length) / 256);
}
/**
 * All the diffing one merge may do (wall clock). Past it, every run of changed lines not diffed yet
 * is replaced whole: a coarser edit, still exact, so the three-way merge keeps everything. A
 * workspace process can rewrite a file as often as it likes, so the total is what must be bounded.
 */
export const MERGE_DIFF_BUDGET_MS = 2000;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The lengths of the common start (`head`) and, after it, common end (`tail`) of two texts, never
 * between the two halves of a surrogate pair. Found by halving slices compared natively: a
 * megabyte text that differs in a line costs well under a millisecond.
 */
export function commonEnds(from: string, to: string): { head: number; tail: number } {
  let head = 0;
  let hi = Math.min(from.length, to.length);
  while (head < hi) {
    const mid = (head + hi + 1) >> 1;
    if (from.slice(head, mid) === to.slice(head, mid)) head = mid;
    else hi = mid - 1;
  }
  if (head > 0 && isHighSurrogate(from.charCodeAt(head - 1))) head--;
  let tail = 0;
  hi = Math.min(from.length, to.length) - head;
  while (tail < hi) {
    const mid = (tail + hi + 1) >> 1;
    if (from.slice(from.length - mid, from.length - tail) === to.slice(to.length - mid, to.length - tail))
      tail = mid;
    else hi = mid - 1;
  }
  if (tail > 0 && isLowSurrogate(from.charCodeAt(from.length - tail))) tail--;
  return { head, tail };
}

type Changes = ChangeObject<string>[] | undefined;

/** The time left to one merge's diffing. */
class DiffBudget {
  private readonly deadline: number;

  constructor(budgetMs: number) {
    this.deadline = performance.now() + budgetMs;
  }

  /**
   * The changes `differ` finds from `from` to `to`, or undefined when the budget ran out before
   * they were found (or they need more than `maxEditLength` edits).
   */
  diff(
    differ: (from: string, to: string, options: { timeout: number; maxEditLength?: number }) => Changes,
    from: string,
    to: string,
    maxEditLength?: number,
  ): Changes {
    const left = this.deadline - performance.now();
    return left > 0 ? differ(from, to, { timeout: left, maxEditLength }) : undefined;
  }
}

/** Character edits turning `from` into `to`; diffChars works on code points, so no pair is split. */
function charEdits(from: string, to: string, offset: number, budget: DiffBudget, out: TextEdit[]): void {
  const changes =
    from.length <= CHAR_DIFF_LIMIT && to.length <= CHAR_DIFF_LIMIT
      ? budget.diff(diffChars, from, to, charEditLimit(from, to))
      : undefined;
  if (!changes) {
    out.push({ at: offset, remove: from.length, insert: to });
    return;
  }
  let at = offset;
  for (const change of changes) {
    if (change.added) pushEdit(out, { at, remove: 0, insert: change.value });
    else if (change.removed) {
      pushEdit(out, { at, remove: change.value.length, insert: "" });
      at += change.value.length;
    } else at += change.value.length;
  }
}

/** Joins an edit to the previous one when they touch, so a replacement stays one edit. */
function pushEdit(out: TextEdit[], edit: TextEdit): void {
  const last = out.at(-1);
  if (last && last.at + last.remove === edit.at) {
    last.remove += edit.remove;
    last.insert += edit.insert;
  } else out.push(edit);
}

/**
 * The small set of edits that turns `from` into `to`, in ascending order of position in `from`,
 * with positions in UTF-16 units that never fall inside a surrogate pair. Lines first (cheap on
 * large files), then characters inside each changed run of lines, so a one-word change stays a
 * one-word edit and text around it is left alone. All of it within `budgetMs`; what the budget
 * does not reach is replaced whole. Synchronous, and seconds long on megabytes: the service runs
 * it on a worker thread (textEditsOffThread).
 */
export function textEdits(from: string, to: string, budgetMs = MERGE_DIFF_BUDGET_MS): TextEdit[] {
  if (from === to) return [];
  const budget = new DiffBudget(budgetMs);
  const { head, tail } = commonEnds(from, to);
  const oldMiddle = from.slice(head, from.length - tail);
  const newMiddle = to.slice(head, to.length - tail);
  const out: TextEdit[] = [];
  const lines = budget.diff(diffLines, oldMiddle, newMiddle);
  if (!lines) {
    charEdits(oldMiddle, newMiddle, head, budget, out);
    return out;
  }
  let at = head;
  let removed = "";
  let added = "";
  const flush = () => {
    if (removed || added) charEdits(removed, added, at, budget, out);
    at += removed.length;
    removed = "";
    added = "";
  };
  for (const change of lines) {
    if (change.removed) removed += change.value;
    else if (change.added) added += change.value;
    else {
      flush();
      at += change.value.length;
    }
  }
  flush();
  return out;
}

/** `text` with `edits` (from textEdits) applied; for tests and checks. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  let result = "";
  let from = 0;
  for (const edit of edits) {
    result += text.slice(from, edit.at) + edit.insert;
    from = edit.at + edit.remove;
  }
  return result + text.slice(from);
}
