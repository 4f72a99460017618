import type { GitIndexText } from "@coder/protocol";
import { ServiceError } from "../errors/service-error";

type NoText = Exclude<GitIndexText["state"], "tracked" | "outside">;

const WHY_NO_TEXT: Record<NoText, { kind: "precondition" | "too_large"; message: string }> = {
  untracked: { kind: "precondition", message: "git does not track this file yet" },
  unmerged: { kind: "precondition", message: "this file has unresolved conflicts" },
  not_a_file: {
    kind: "precondition",
    message: "git keeps this path as a link, folder or submodule, not a file",
  },
  binary: { kind: "precondition", message: "git holds this file as binary content" },
  too_large: {
    kind: "too_large",
    message: "this file's version in git is too large to compare in the editor",
  },
};

/**
 * What `git.indexText` answers: the index's text, `null` outside a repository (no markers, no
 * error), and a plain refusal for a file git holds no comparable text of.
 */
export function indexTextAnswer(answer: GitIndexText): { text: string | null } {
  if (answer.state === "tracked") return { text: answer.text };
  if (answer.state === "outside") return { text: null };
  const why = WHY_NO_TEXT[answer.state];
  throw new ServiceError(why.kind, why.message);
}
