import type { Prompter } from "../agent/snapshots/turn-origin";

export interface CommitAuthor {
  name: string;
  email: string;
}

/** What git would refuse or misread in an identity: angle brackets, line breaks, NUL. */
const clean = (text: string) => text.replace(/[<>\0\r\n]/g, "").trim();

/**
 * Who a commit is by: the acting person for one made from the panel, the prompt's writer for an
 * agent turn's (a Principal is a Prompter too). A user's account name and e-mail
 * address; a guest has no address, so theirs names the workspace under `.invalid` (RFC 2606), as
 * does an account without one.
 */
export async function commitAuthor(
  principal: Prompter,
  workspaceId: string,
  emailOf: (userId: string) => Promise<string | null>,
): Promise<CommitAuthor> {
  const name = clean(principal.name) || "coder user";
  if (principal.kind === "guest") return { name, email: `guest@${workspaceId}.coder.invalid` };
  const email = clean((await emailOf(principal.userId)) ?? "");
  return { name, email: email || `user-${principal.userId}@coder.invalid` };
}
