import type { Author } from "@coder/protocol";
import { displayName, type Principal } from "./principal";

/** The name a principal's prompts and answers carry in a shared agent session. */
export function authorOf(principal: Principal): Author {
  return { kind: principal.kind, name: displayName(principal) };
}
