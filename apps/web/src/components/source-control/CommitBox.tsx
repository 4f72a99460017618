"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./source-control.module.css";

/**
 * The commit message and Commit (Ctrl/Cmd-Enter): commits what is staged as the person on this
 * page; "Amend" rewrites the last commit instead.
 */
export function CommitBox({ workspaceId, stagedCount }: { workspaceId: string; stagedCount: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const [amend, setAmend] = useState(false);
  const commit = useMutation(
    trpc.git.commit.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => {
        setMessage("");
        setAmend(false);
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() }),
    }),
  );
  const ready = message.trim() !== "" && (stagedCount > 0 || amend);
  const submit = () => ready && commit.mutate({ workspaceId, message, amend });
  return (
    <div className={styles.commitBox}>
      <textarea
        className={styles.message}
        data-testid="commit-message"
        aria-label="Commit message"
        placeholder={
          stagedCount > 0 || amend ? "Message (Ctrl+Enter to commit)" : "Stage changes to commit them"
        }
        rows={3}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div className={styles.line}>
        <label className={styles.amend}>
          <input
            type="checkbox"
            data-testid="commit-amend"
            checked={amend}
            onChange={(e) => setAmend(e.target.checked)}
          />
          Amend the last commit
        </label>
        <PendingButton
          pending={commit.isPending}
          className="button primary"
          data-testid="commit-button"
          disabled={!ready}
          onClick={submit}
        >
          {amend ? "Amend" : "Commit"}
        </PendingButton>
      </div>
      {commit.isError && (
        <p className={styles.error} role="alert" data-testid="commit-error">
          {errorMessage(commit.error)}
        </p>
      )}
    </div>
  );
}
