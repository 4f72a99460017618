import { reindent } from "../reindent";
import { matchingWindows, trimLine } from "../text-model";
import type { Strategy } from "./strategy";

/** Whole lines that equal old_string's once leading and trailing white space is ignored on each. */
export const lineTrimmed: Strategy = {
  name: "line-trimmed",
  find: (file, search) =>
    matchingWindows(file, search, trimLine).map((i) =>
      file.lineSpan(i, i + search.lines.length - 1, search.endsWithNewline),
    ),
  adapt: (newString, matched, search) => reindent(search.text, matched, newString),
};
