import type { Span } from "../text-model";
import type { Strategy } from "./strategy";
import { escapeRegExp } from "./whitespace-normalized";

// Words (letters, digits, `_`, `$`) and single other characters.
const LEXEME = /[\p{L}\p{N}_$]+|[^\s\p{L}\p{N}_$]/gu;
const WORD = /^[\p{L}\p{N}_$]/u;

/**
 * old_string's text occurring over a different number of lines than the model wrote: a call the
 * formatter wrapped over several lines that the model wrote on one, or the reverse. The words and
 * symbols must all be there in order; only white space and line breaks between them may differ
 * (two words still need some white space between them). The last resort of the chain; the engine's
 * span-length limit keeps a match from stretching far.
 */
export const multiOccurrence: Strategy = {
  name: "multi-occurrence",
  find(file, search) {
    const lexemes = search.text.match(LEXEME) ?? [];
    if (lexemes.length < 2) return [];
    let source = "";
    lexemes.forEach((lexeme, k) => {
      if (k > 0) source += WORD.test(lexeme) && WORD.test(lexemes[k - 1] ?? "") ? "\\s+" : "\\s*";
      source += escapeRegExp(lexeme);
    });
    const spans: Span[] = [];
    for (const match of file.text.matchAll(new RegExp(source, "gu"))) {
      spans.push({ start: match.index, end: match.index + match[0].length });
    }
    return spans;
  },
};
