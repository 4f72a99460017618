import { occurrences } from "../text-model";
import type { Strategy } from "./strategy";

/**
 * old_string with stray white space or blank lines at its start or end, which the file does not
 * have there. The same surplus is taken off new_string so the edit does not add it either.
 */
export const trimmedBoundary: Strategy = {
  name: "trimmed-boundary",
  find(file, search) {
    const trimmed = search.text.trim();
    return trimmed === search.text ? [] : occurrences(file.text, trimmed);
  },
  adapt: (newString, _matched, search) => stripBoundary(newString, search.text),
};

/**
 * Takes off `newString`'s ends the white space that `oldString` has at its ends (as far as the two
 * agree), since the span being replaced does not include it.
 */
export function stripBoundary(newString: string, oldString: string): string {
  const oldLead = oldString.slice(0, oldString.length - oldString.trimStart().length);
  const oldTail = oldString.slice(oldString.trimEnd().length);
  const newLead = newString.slice(0, newString.length - newString.trimStart().length);
  let lead = 0;
  while (lead < oldLead.length && lead < newLead.length && oldLead[lead] === newLead[lead]) lead++;
  const body = newString.slice(lead);
  const newTail = body.slice(body.trimEnd().length);
  let tail = 0;
  while (
    tail < oldTail.length &&
    tail < newTail.length &&
    oldTail[oldTail.length - 1 - tail] === newTail[newTail.length - 1 - tail]
  ) {
    tail++;
  }
  return body.slice(0, body.length - tail);
}
