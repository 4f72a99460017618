import { occurrences } from "../text-model";
import type { Strategy } from "./strategy";

/** old_string exactly as written. */
export const exact: Strategy = {
  name: "exact",
  find: (file, search) => occurrences(file.text, search.text),
};
