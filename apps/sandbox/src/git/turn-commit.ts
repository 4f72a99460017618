import { type GitTurnCommitResult, MAX_GIT_PATHS } from "@coder/protocol";
import type { AgentService } from "../agent/agent-service";
import type { DaemonConnection } from "../daemon/daemon-connection";
import { ServiceError } from "../errors/service-error";
import { commitAuthor } from "./commit-author";
import { proposeTurnMessage } from "./turn-commit-message";

/**
 * The trailer every commit of an agent's turn carries: GitHub and GitLab show the agent as a
 * co-author beside the person who prompted it. `.invalid` (RFC 2606) is no one's mailbox.
 */
export const AGENT_CO_AUTHOR = "Co-authored-by: coder agent <agent@coder.invalid>";

export interface TurnCommitRequest {
  workspaceId: string;
  sessionId: string;
  turnId: string;
  message?: string | undefined;
  /** A new branch made at HEAD for the commit (checked out). */
  branch?: string | undefined;
}

export interface TurnCommitDeps {
  agent: Pick<AgentService, "workspaceOf" | "turnOrigin" | "turnDiff" | "sessionModel">;
  daemon: Pick<DaemonConnection, "request">;
  emailOf(userId: string): Promise<string | null>;
  log(line: string): void;
}

/** An agent turn of a session: what a commit of its files starts from. */
export type TurnRef = Pick<TurnCommitRequest, "workspaceId" | "sessionId" | "turnId">;

/** The turn's origin and files, once it is known to be over, in this workspace, with files to commit. */
async function committableTurn(deps: Pick<TurnCommitDeps, "agent">, request: TurnRef) {
  const ref = { sessionId: request.sessionId, turnId: request.turnId };
  if ((await deps.agent.workspaceOf(ref.sessionId)) !== request.workspaceId) {
    throw new ServiceError("not_found", "this session is not in this workspace");
  }
  const origin = await deps.agent.turnOrigin(ref);
  if (origin.status === "running")
    throw new ServiceError("busy", "the turn is still running; commit it once it is over");
  const { files } = await deps.agent.turnDiff(ref);
  if (files.length === 0)
    throw new ServiceError("precondition", "this turn changed no files, so there is nothing to commit");
  if (files.length > MAX_GIT_PATHS) {
    throw new ServiceError(
      "too_large",
      `this turn changed ${files.length} files; commit them from the Source Control panel`,
    );
  }
  return { origin, files };
}

/** The message the session's model proposes for a commit of the turn (the plain one when it cannot say). */
export async function proposeTurnCommitMessage(
  deps: Pick<TurnCommitDeps, "agent" | "log">,
  request: TurnRef,
): Promise<{ message: string }> {
  const { origin, files } = await committableTurn(deps, request);
  const model = () => deps.agent.sessionModel(request.sessionId);
  return { message: await proposeTurnMessage(model, origin.prompt, files, deps.log) };
}

/**
 * One commit of exactly the files an agent turn changed (the turn's snapshot diff, the list its
 * revert restores), by the person who prompted it, with the agent as co-author. Files the turn
 * changed that no longer differ from HEAD are left out; if none differs, nothing is committed.
 */
export async function commitTurn(
  deps: TurnCommitDeps,
  request: TurnCommitRequest,
): Promise<GitTurnCommitResult> {
  const { origin, files } = await committableTurn(deps, request);
  const author = origin.prompter
    ? await commitAuthor(origin.prompter, request.workspaceId, deps.emailOf)
    : { name: "coder agent", email: "agent@coder.invalid" };
  const model = () => deps.agent.sessionModel(request.sessionId);
  const message = request.message ?? (await proposeTurnMessage(model, origin.prompt, files, deps.log));
  return deps.daemon.request("git.commitPaths", {
    paths: files.map((f) => f.path),
    message,
    author,
    trailers: [AGENT_CO_AUTHOR],
    ...(request.branch !== undefined ? { branch: request.branch } : {}),
  });
}
