import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./chat.module.css";

/** A conversation not started yet: its session is created with the first message. */
export interface Draft {
  workspaceId: string;
  onStarted(sessionId: string): void;
}

/**
 * The prompt box: Enter sends, Shift+Enter is a new line; while a turn runs, Stop aborts it.
 * Without a session (a `draft`), sending creates one first, so an empty conversation never exists.
 */
export function Composer({
  sessionId,
  running,
  disabled,
  draft,
}: {
  sessionId: string | null;
  running: boolean;
  disabled: boolean;
  draft?: Draft;
}) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const create = useMutation(trpc.session.create.mutationOptions({ meta: SHOWN_INLINE }));
  const prompt = useMutation(
    trpc.session.prompt.mutationOptions({ meta: SHOWN_INLINE, onSuccess: () => setText("") }),
  );
  const abort = useMutation(trpc.session.abort.mutationOptions({ meta: SHOWN_INLINE }));
  const canSend = !disabled && !running && !prompt.isPending && !create.isPending && text.trim() !== "";
  const send = async () => {
    if (!canSend) return;
    try {
      const id =
        sessionId ??
        (draft && (await create.mutateAsync({ workspaceId: draft.workspaceId, agent: "build" })).id);
      if (!id) return;
      await prompt.mutateAsync({ sessionId: id, text });
      if (!sessionId) draft?.onStarted(id);
    } catch {
      // Shown below from the mutation's error.
    }
  };

  return (
    <div className={styles.composer}>
      {(create.error ?? prompt.error ?? abort.error) && (
        <div className={styles.toolError} role="alert">
          {errorMessage(create.error ?? prompt.error ?? abort.error)}
        </div>
      )}
      <textarea
        data-testid="chat-input"
        className={styles.input}
        rows={3}
        placeholder={disabled ? "Configure a model to talk to the agent" : "Ask the agent…"}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className={styles.composerActions}>
        {running ? (
          <button
            type="button"
            className="button danger"
            data-testid="chat-abort"
            disabled={abort.isPending || !sessionId}
            onClick={() => sessionId && abort.mutate({ sessionId })}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            data-testid="chat-send"
            disabled={!canSend}
            onClick={() => void send()}
          >
            {(create.isPending || prompt.isPending) && <span className="spinner" />} Send
          </button>
        )}
      </div>
    </div>
  );
}
