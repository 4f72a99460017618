import type { ApprovalRequest } from "@coder/protocol";
import { newId } from "../ids";
import { askApproval } from "../interaction/ask-approval";
import { RequestCancelled } from "../interaction/pending-requests";
import { addGrants, agentRules } from "../loop/session-permissions";
import type { TurnInput } from "../loop/turn";
import { decide } from "../permissions/check";
import { CONFIG_PATH } from "./verify-config";

/** Whether the check may run: yes, no (and why), or the prompt was stopped while asking. */
export type CheckPermission = { kind: "run" } | { kind: "skip"; reason: string } | { kind: "aborted" };

/**
 * The check command comes from the repository, so it is judged like one of the agent's own bash
 * calls: the session agent's rules and "always" grants decide, and where they ask, the person is
 * asked in the same way (an "always" reply counts for the agent's calls too).
 */
export async function checkPermission(
  input: TurnInput,
  agent: string,
  command: string,
  callId: string,
): Promise<CheckPermission> {
  const { deps, store, root, signal } = input;
  const request = {
    permission: "bash",
    patterns: [command],
    title: `run the check ${CONFIG_PATH} names`,
  };
  const decision = await decide(agentRules(deps.config.permissions, root, agent), request);
  if (decision.action === "allow") return { kind: "run" };
  if (decision.action === "deny") return { kind: "skip", reason: decision.reason ?? "bash is not permitted" };
  const approval: ApprovalRequest = {
    id: newId("req"),
    sessionId: root.sessionId,
    callId,
    tool: "bash",
    ...request,
    always: decision.always,
  };
  try {
    const answer = await askApproval(deps.pending, root, approval, signal);
    if (answer.reply === "reject") return { kind: "skip", reason: "the person did not allow it" };
    if (answer.reply === "always") await addGrants(store, root, agent, "bash", decision.always);
    return { kind: "run" };
  } catch (error) {
    if (error instanceof RequestCancelled) return { kind: "aborted" };
    throw error;
  }
}
