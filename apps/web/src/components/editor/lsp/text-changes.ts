import { ChangeSet, type Text } from "@codemirror/state";

/**
 * The changes from `before` to `after` as one replacement of the span between their common start
 * and common end. Used when an edit was not seen by an editor view (a reload from disk while the
 * tab was hidden), so the server still gets an incremental update.
 */
export function changesBetween(before: Text, after: Text): ChangeSet {
  if (before === after || before.eq(after)) return ChangeSet.empty(before.length);
  const a = before.toString();
  const b = after.toString();
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return ChangeSet.of({ from: start, to: endA, insert: b.slice(start, endB) }, a.length);
}
