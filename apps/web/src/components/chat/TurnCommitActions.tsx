"use client";

import type { TurnSummary } from "@coder/protocol";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./chat.module.css";

/** A branch name to start from: the turn's id keeps two turns' branches apart. */
const suggestedBranch = (turnId: string) => `agent/${turnId.slice(-8).toLowerCase()}`;

/**
 * Under a finished turn that changed files, for editors and owners: "Commit the turn" (one commit
 * of exactly its files, the model's message, the prompter as author) and "New branch from the
 * turn" (the same on a new branch). Shows the commit's short hash, or git's message.
 */
export function TurnCommitActions({ workspaceId, turn }: { workspaceId: string; turn: TurnSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [branch, setBranch] = useState<string | null>(null);
  // The Source Control panel shows the new commit (and branch) at once.
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });
  const commit = useMutation(trpc.git.commitTurn.mutationOptions({ meta: SHOWN_INLINE, onSuccess }));
  const branchFrom = useMutation(
    trpc.git.branchFromTurn.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: async () => {
        setBranch(null);
        await onSuccess();
      },
    }),
  );
  const ref = { workspaceId, sessionId: turn.sessionId, turnId: turn.id };
  const busy = commit.isPending || branchFrom.isPending;
  const done = branchFrom.data ?? commit.data;
  const failure = branchFrom.error ?? commit.error;

  return (
    <div className={styles.turnCommit}>
      <div className={styles.promptActions}>
        <PendingButton
          pending={commit.isPending}
          disabled={busy}
          className="button"
          data-testid="turn-commit"
          onClick={() => {
            branchFrom.reset();
            commit.mutate(ref);
          }}
        >
          Commit the turn
        </PendingButton>
        {branch === null ? (
          <button
            type="button"
            className="button"
            data-testid="turn-branch"
            disabled={busy}
            onClick={() => setBranch(suggestedBranch(turn.id))}
          >
            New branch from the turn
          </button>
        ) : (
          <form
            className={styles.promptActions}
            onSubmit={(e) => {
              e.preventDefault();
              commit.reset();
              branchFrom.mutate({ ...ref, branch: branch.trim() });
            }}
          >
            <input
              className="input"
              aria-label="New branch name"
              data-testid="turn-branch-name"
              value={branch}
              onChange={(e) => setBranch(e.target.value)}
              // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked for it
              autoFocus
            />
            <PendingButton
              type="submit"
              pending={branchFrom.isPending}
              disabled={busy || branch.trim() === ""}
              className="button"
              data-testid="turn-branch-create"
            >
              Create and commit
            </PendingButton>
            <button type="button" className="button" disabled={busy} onClick={() => setBranch(null)}>
              Cancel
            </button>
          </form>
        )}
      </div>
      {busy && <div className={styles.muted}>Committing the turn…</div>}
      {done && !busy && (
        <div className={styles.muted} data-testid="turn-commit-done">
          Committed <code>{done.hash.slice(0, 7)}</code>
          {done.branch && (
            <>
              {" "}
              on <code>{done.branch}</code>
            </>
          )}
          : {done.summary}
        </div>
      )}
      {failure && !busy && (
        <div className={styles.toolError} role="alert" data-testid="turn-commit-error">
          {errorMessage(failure)}
        </div>
      )}
    </div>
  );
}
