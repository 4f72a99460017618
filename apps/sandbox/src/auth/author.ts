import type { Author } from "@coder/protocol";
import type { Principal } from "./principal";

/** How the owner is named to the people they share a workspace with (the service knows no other name). */
export const OWNER_NAME = "Owner";

/** The name a principal's prompts and answers carry in a shared agent session. */
export function authorOf(principal: Principal): Author {
  return principal.kind === "owner"
    ? { kind: "owner", name: OWNER_NAME }
    : { kind: "guest", name: principal.name };
}
