import type { TextEdit } from "./text-diff";

/**
 * How much one batch may change (UTF-16 units inserted, plus EDIT_COST per edit): applying it to
 * a Yjs document, encoding the update and integrating it elsewhere then take a few milliseconds,
 * so a merge that replaces megabytes gives the event loop back between batches.
 */
export const BATCH_UNITS = 32 * 1024;
/** What one edit costs beyond its text (finding its place, one item more in the update). */
const EDIT_COST = 64;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `edits` (from textEdits: ascending, against one text) as batches to apply one after another,
 * each edit's removal before its insertion: last edit first, so every position stays valid while
 * earlier ones wait, and an insertion longer than a batch split into pieces inserted one after
 * the other (never between the halves of a surrogate pair). Applied in order, all batches make
 * exactly the edits.
 */
export function editBatches(edits: readonly TextEdit[], batchUnits = BATCH_UNITS): TextEdit[][] {
  const batches: TextEdit[][] = [];
  let batch: TextEdit[] = [];
  let units = 0;
  const add = (edit: TextEdit) => {
    const cost = edit.insert.length + EDIT_COST;
    if (batch.length > 0 && units + cost > batchUnits) {
      batches.push(batch);
      batch = [];
      units = 0;
    }
    batch.push(edit);
    units += cost;
  };
  for (const edit of edits.toReversed()) {
    let at = edit.at;
    let remove = edit.remove;
    let rest = edit.insert;
    do {
      let end = Math.min(rest.length, batchUnits);
      if (end < rest.length && isHighSurrogate(rest.charCodeAt(end - 1))) end += end > 1 ? -1 : 1;
      add({ at, remove, insert: rest.slice(0, end) });
      at += end;
      remove = 0;
      rest = rest.slice(end);
    } while (rest.length > 0);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
