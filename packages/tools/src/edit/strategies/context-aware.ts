import { reindent } from "../reindent";
import { MIN_MIDDLE_SIMILARITY, tooLongSpan } from "../safety";
import { type Span, trimLine } from "../text-model";
import type { Strategy } from "./strategy";

/**
 * old_string's surrounding lines are right but lines were dropped or added between them (a blank
 * line, a comment, a log call): the first and last non-blank lines anchor the block, and the
 * non-blank lines between must mostly line up in order (longest common subsequence, blank lines
 * ignored) with equal text. Lines that do not line up count as completely different.
 */
export const contextAware: Strategy = {
  name: "context-aware",
  find(file, search) {
    const n = search.lines.length;
    const want = search.normalized(trimLine).filter((line) => line !== "");
    const first = want[0];
    const last = want[want.length - 1];
    if (want.length < 3 || first === undefined || last === undefined) return [];
    const wantMiddle = want.slice(1, -1);
    const have = file.normalized(trimLine);
    const limit = tooLongSpan(n);
    const spans: Span[] = [];
    for (const i of file.linesWhere(trimLine, first)) {
      for (let j = i + 2; j - i + 1 < limit && j < have.length; j++) {
        if (have[j] !== last) continue;
        const haveMiddle = have.slice(i + 1, j).filter((line) => line !== "");
        if (alignedShare(wantMiddle, haveMiddle) >= MIN_MIDDLE_SIMILARITY) {
          spans.push(file.lineSpan(i, j, search.endsWithNewline));
          break;
        }
      }
    }
    return spans;
  },
  adapt: (newString, matched, search) => reindent(search.text, matched, newString),
};

/** Lines the two lists share in order, over the longer list's length. */
function alignedShare(a: string[], b: string[]): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  if (Math.min(a.length, b.length) < MIN_MIDDLE_SIMILARITY * longer) return 0;
  // One-row LCS.
  const row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    let diagonal = 0;
    for (let k = 1; k <= b.length; k++) {
      const above = row[k] as number;
      row[k] = line === b[k - 1] ? diagonal + 1 : Math.max(above, row[k - 1] as number);
      diagonal = above;
    }
  }
  return (row[b.length] as number) / longer;
}
