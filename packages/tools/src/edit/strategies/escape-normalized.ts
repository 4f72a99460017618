import { occurrences } from "../text-model";
import type { Strategy } from "./strategy";

const ESCAPE = /\\(n|t|r|"|'|`|\$|\\|\n)/g;
const UNESCAPED: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\n": "\n" };

/** Turns escape sequences a model wrote literally (`\n`, `\t`, `\"`, `\\`) into the characters. */
function unescapeLiterals(text: string): string {
  return text.replace(ESCAPE, (_, char: string) => UNESCAPED[char] ?? char);
}

/**
 * old_string escaped once too often (`\n` for a line break, `\"` for a quote), as happens when a
 * model encodes its arguments twice. new_string was then escaped the same way, so it is unescaped
 * too: written as is, it would put literal `\n`s into the file.
 */
export const escapeNormalized: Strategy = {
  name: "escape-normalized",
  find(file, search) {
    const plain = unescapeLiterals(search.text);
    return plain === search.text ? [] : occurrences(file.text, plain);
  },
  adapt: (newString) => unescapeLiterals(newString),
};
