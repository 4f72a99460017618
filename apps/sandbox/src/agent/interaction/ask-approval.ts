import type { ApprovalRequest } from "@coder/protocol";
import type { RootScope } from "../loop/turn-state";
import type { ApprovalAnswer, PendingRequests } from "./pending-requests";

/**
 * Asks the person in the session they look at, and records the question and the reply. Rejects
 * with RequestCancelled when the signal aborts first. The caller grants an "always" reply.
 */
export async function askApproval(
  pending: PendingRequests,
  root: RootScope,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  await root.recorder.emit({ type: "approval.asked", request });
  const answer = await pending.approval(root.sessionId, request, signal);
  await root.recorder.emit({
    type: "approval.replied",
    requestId: request.id,
    reply: answer.reply,
    ...(answer.by ? { by: answer.by } : {}),
  });
  return answer;
}
