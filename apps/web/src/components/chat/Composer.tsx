import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./chat.module.css";

/** The prompt box: Enter sends, Shift+Enter is a new line; while a turn runs, Stop aborts it. */
export function Composer({
  sessionId,
  running,
  disabled,
}: {
  sessionId: string;
  running: boolean;
  disabled: boolean;
}) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const prompt = useMutation(trpc.session.prompt.mutationOptions({ onSuccess: () => setText("") }));
  const abort = useMutation(trpc.session.abort.mutationOptions());
  const canSend = !disabled && !running && !prompt.isPending && text.trim() !== "";
  const send = () => {
    if (canSend) prompt.mutate({ sessionId, text });
  };

  return (
    <div className={styles.composer}>
      {(prompt.error ?? abort.error) && (
        <div className={styles.toolError} role="alert">
          {errorMessage(prompt.error ?? abort.error)}
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
            send();
          }
        }}
      />
      <div className={styles.composerActions}>
        {running ? (
          <button
            type="button"
            className="button danger"
            data-testid="chat-abort"
            disabled={abort.isPending}
            onClick={() => abort.mutate({ sessionId })}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            data-testid="chat-send"
            disabled={!canSend}
            onClick={send}
          >
            {prompt.isPending && <span className="spinner" />} Send
          </button>
        )}
      </div>
    </div>
  );
}
