"use client";

import { errorMessage } from "../../lib/errors/error-message";
import styles from "./chat.module.css";
import { MessageView } from "./MessageView";
import { useChatSession } from "./use-chat-session";

/** A sub-agent's child session, live, inside the `task` card that started it. Read-only. */
export function SubagentView({ sessionId }: { sessionId: string }) {
  const { state, loadError, streamError } = useChatSession(sessionId);
  const problem = loadError ?? streamError;
  if (problem) {
    return (
      <p className={styles.notice} role="alert">
        Could not show the sub-agent's session: {errorMessage(problem)}
      </p>
    );
  }
  if (!state) {
    return (
      <p className={styles.notice}>
        <span className="spinner" /> Loading the sub-agent's session…
      </p>
    );
  }
  return (
    <div className={styles.subagent} data-testid="subagent-session">
      {state.messages.map((message) => (
        <MessageView key={message.id} message={message} />
      ))}
    </div>
  );
}
