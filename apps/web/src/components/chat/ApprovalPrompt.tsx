import type { ApprovalReply, ApprovalRequest } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useCanEdit } from "../access/workspace-access";
import styles from "./chat.module.css";

/**
 * The agent asks before it acts: once, always for this session, or no (with a word for the
 * agent). Everyone watching sees it; the first answer counts. A viewer sees it without buttons.
 */
export function ApprovalPrompt({ request }: { request: ApprovalRequest }) {
  const canAct = useCanEdit();
  const trpc = useTRPC();
  const respond = useMutation(trpc.session.respond.mutationOptions({ meta: SHOWN_INLINE }));
  const [message, setMessage] = useState("");
  const reply = (answer: ApprovalReply) =>
    respond.mutate({
      sessionId: request.sessionId,
      requestId: request.id,
      reply: answer,
      ...(answer === "reject" && message.trim() ? { message: message.trim() } : {}),
    });
  return (
    <div className={styles.prompt} data-testid="approval">
      <div className={styles.promptTitle}>
        The agent wants to run <code>{request.tool}</code>: {request.title}
      </div>
      {request.patterns.length > 0 && <pre className={styles.output}>{request.patterns.join("\n")}</pre>}
      {canAct ? (
        <>
          <input
            type="text"
            data-testid="approval-message"
            placeholder="Optional: why not, or what to do instead (sent with Reject)"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          <div className={styles.promptActions}>
            <button
              type="button"
              className="button primary"
              data-testid="approval-once"
              disabled={respond.isPending}
              onClick={() => reply("once")}
            >
              Allow once
            </button>
            <button
              type="button"
              className="button"
              data-testid="approval-always"
              disabled={respond.isPending}
              title={
                request.always.length ? `Allows ${request.always.join(", ")} for this session` : undefined
              }
              onClick={() => reply("always")}
            >
              Always in this session
            </button>
            <button
              type="button"
              className="button danger"
              data-testid="approval-reject"
              disabled={respond.isPending}
              onClick={() => reply("reject")}
            >
              Reject
            </button>
          </div>
        </>
      ) : (
        <p className={styles.muted} data-testid="approval-watch-only">
          An owner or editor of this workspace can answer.
        </p>
      )}
      {respond.isError && <div className={styles.toolError}>{errorMessage(respond.error)}</div>}
    </div>
  );
}
