import { reindent } from "../reindent";
import { MIN_MIDDLE_SIMILARITY, tooLongSpan } from "../safety";
import { similarity } from "../similarity";
import { type Span, trimLine } from "../text-model";
import type { Strategy } from "./strategy";

/**
 * The first and last lines of old_string match (ignoring indentation) and the lines between are
 * alike: catches a model that misremembered a word or two inside a block. Needs three lines or more.
 */
export const blockAnchor: Strategy = {
  name: "block-anchor",
  find(file, search) {
    const want = search.normalized(trimLine);
    const n = want.length;
    const first = want[0] ?? "";
    const last = want[n - 1] ?? "";
    if (n < 3 || first === "" || last === "") return [];
    const have = file.normalized(trimLine);
    const limit = tooLongSpan(n);
    const spans: Span[] = [];
    // Neighbouring candidates compare the same pairs of lines; remember each pair's score.
    const known = new Map<number, number>();
    const alike = (k: number, line: number): number => {
      const key = line * n + k;
      let score = known.get(key);
      if (score === undefined) {
        score = similarity(want[k] ?? "", have[line] ?? "");
        known.set(key, score);
      }
      return score;
    };
    for (const i of file.linesWhere(trimLine, first)) {
      let best: { j: number; score: number } | undefined;
      for (let j = i + 2; j - i + 1 < limit && j < have.length; j++) {
        if (have[j] !== last) continue;
        const score = middleScore(alike, i, j, n);
        if (score < MIN_MIDDLE_SIMILARITY) continue;
        const closer = best && Math.abs(j - i + 1 - n) < Math.abs(best.j - i + 1 - n);
        if (!best || score > best.score || (score === best.score && closer)) best = { j, score };
      }
      if (best) spans.push(file.lineSpan(i, best.j, search.endsWithNewline));
    }
    return spans;
  },
  adapt: (newString, matched, search) => reindent(search.text, matched, newString),
};

/**
 * Average similarity of old_string's middle lines to the file's lines between anchors `i` and `j`.
 * When the counts differ, each line is compared with its counterpart counted from the top and from
 * the bottom (one line added or dropped shifts the rest), and the larger count is the divisor, so
 * extra or missing lines weigh as differences. Stops early once the threshold is out of reach.
 */
function middleScore(alike: (k: number, line: number) => number, i: number, j: number, n: number): number {
  const fileMiddle = j - i - 1;
  const searchMiddle = n - 2;
  const divisor = Math.max(fileMiddle, searchMiddle);
  if (Math.min(fileMiddle, searchMiddle) < MIN_MIDDLE_SIMILARITY * divisor) return 0;
  const needed = MIN_MIDDLE_SIMILARITY * divisor;
  let sum = 0;
  for (let k = 1; k <= searchMiddle; k++) {
    const fromTop = i + k;
    const fromBottom = j - (n - 1 - k);
    let score = fromTop < j ? alike(k, fromTop) : 0;
    if (score < 1 && fromBottom > i && fromBottom !== fromTop) score = Math.max(score, alike(k, fromBottom));
    sum += score;
    if (sum + (searchMiddle - k) < needed) return 0;
  }
  return sum / divisor;
}
