import { diffChars, diffLines } from "diff";

/** One replacement in the old text: at UTF-16 offset `at`, remove `remove` units, insert `insert`. */
export interface TextEdit {
  at: number;
  remove: number;
  insert: string;
}

/** Runs of changed lines longer than this (UTF-16 units, each side) are replaced whole, not diffed by character. */
const CHAR_DIFF_LIMIT = 20_000;
/** A diff that takes longer than this gives up and replaces the region whole. */
const DIFF_TIMEOUT_MS = 200;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Length of the common start, never ending between the two halves of a surrogate pair. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) i--;
  return i;
}

/** Length of the common end (not reaching into the first `skip` units), never starting on a low surrogate. */
function commonSuffix(a: string, b: string, skip: number): number {
  const max = Math.min(a.length, b.length) - skip;
  let i = 0;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  if (i > 0 && isLowSurrogate(a.charCodeAt(a.length - i))) i--;
  return i;
}

/** Character edits turning `from` into `to`; diffChars works on code points, so no pair is split. */
function charEdits(from: string, to: string, offset: number, out: TextEdit[]): void {
  const changes =
    from.length <= CHAR_DIFF_LIMIT && to.length <= CHAR_DIFF_LIMIT
      ? diffChars(from, to, { timeout: DIFF_TIMEOUT_MS })
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
 * one-word edit and text around it is left alone.
 */
export function textEdits(from: string, to: string): TextEdit[] {
  if (from === to) return [];
  const head = commonPrefix(from, to);
  const tail = commonSuffix(from, to, head);
  const oldMiddle = from.slice(head, from.length - tail);
  const newMiddle = to.slice(head, to.length - tail);
  const out: TextEdit[] = [];
  const lines = diffLines(oldMiddle, newMiddle, { timeout: DIFF_TIMEOUT_MS });
  if (!lines) {
    charEdits(oldMiddle, newMiddle, head, out);
    return out;
  }
  let at = head;
  let removed = "";
  let added = "";
  const flush = () => {
    if (removed || added) charEdits(removed, added, at, out);
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
