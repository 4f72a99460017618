import { indentLevels } from "../indentation";
import { reindent } from "../reindent";
import { matchingWindows, trimLine } from "../text-model";
import type { Strategy } from "./strategy";

/**
 * The same lines with the same nesting, at another base indentation or in another indent unit
 * (two spaces for four, spaces for tabs). Every such block is also a line-trimmed match, so this
 * strategy matters where line-trimmed found several blocks: it picks the one whose nesting agrees.
 */
export const indentationFlexible: Strategy = {
  name: "indentation-flexible",
  find(file, search) {
    const n = search.lines.length;
    const want = indentLevels(search.lines).join();
    return matchingWindows(file, search, trimLine)
      .filter((i) => indentLevels(file.lines.slice(i, i + n)).join() === want)
      .map((i) => file.lineSpan(i, i + n - 1, search.endsWithNewline));
  },
  adapt: (newString, matched, search) => reindent(search.text, matched, newString),
};
