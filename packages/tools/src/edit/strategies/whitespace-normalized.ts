import { reindent } from "../reindent";
import { collapseWhitespace, matchingWindows, type Span } from "../text-model";
import type { Strategy } from "./strategy";
import { stripBoundary } from "./trimmed-boundary";

/**
 * Runs of white space count as one space: catches `a  =  b` written as `a = b`, tabs written as
 * spaces inside a line. A one-line old_string may be a fragment of a line; several lines must be
 * whole lines. It never invents white space where old_string has none.
 */
export const whitespaceNormalized: Strategy = {
  name: "whitespace-normalized",
  find(file, search) {
    if (search.lines.length > 1) {
      return matchingWindows(file, search, collapseWhitespace).map((i) =>
        file.lineSpan(i, i + search.lines.length - 1, search.endsWithNewline),
      );
    }
    const words = search.text.trim().split(/\s+/);
    // A single word differs from the file only at its ends: that is trimmed-boundary's case.
    if (words.length < 2) return [];
    // Within one line only: [ \t] cannot cross a line break.
    const pattern = new RegExp(words.map(escapeRegExp).join("[ \\t]+"), "g");
    const spans: Span[] = [];
    for (const match of file.text.matchAll(pattern)) {
      spans.push({ start: match.index, end: match.index + match[0].length });
    }
    return spans;
  },
  adapt: (newString, matched, search) =>
    search.lines.length > 1
      ? reindent(search.text, matched, newString)
      : stripBoundary(newString, search.text),
};

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
