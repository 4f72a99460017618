"use client";

import type { TurnSummary } from "@coder/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./chat.module.css";

/** A branch name to start from: the turn's id keeps two turns' branches apart. */
const suggestedBranch = (turnId: string) => `agent/${turnId.slice(-8).toLowerCase()}`;

/** What the person is about to do: commit on the current branch, or on a new one. */
type Draft = { branch: string | null };

/**
 * Under a finished turn that changed files, for editors and owners: "Commit the turn" (one commit
 * of exactly its files, the prompter as author) and "New branch from the turn" (the same on a new
 * branch). Either opens a message field prefilled with the model's proposal, which the person may
 * edit before committing. Shows the commit's short hash, or git's message.
 */
export function TurnCommitActions({ workspaceId, turn }: { workspaceId: string; turn: TurnSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  // null until the person types: the model's proposal shows meanwhile.
  const [typed, setTyped] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const ref = { workspaceId, sessionId: turn.sessionId, turnId: turn.id };
  // Asked once per turn, when the person opens the field: each ask costs the model's tokens.
  const proposal = useQuery(
    trpc.git.proposeTurnMessage.queryOptions(ref, {
      enabled: draft !== null,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
      refetchOnWindowFocus: false,
    }),
  );
  const close = () => {
    setDraft(null);
    setTyped(null);
    setRefusal(null);
  };
  const onSuccess = async () => {
    close();
    // The Source Control panel shows the new commit (and branch) at once.
    await queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });
  };
  const commit = useMutation(trpc.git.commitTurn.mutationOptions({ meta: SHOWN_INLINE, onSuccess }));
  const branchFrom = useMutation(trpc.git.branchFromTurn.mutationOptions({ meta: SHOWN_INLINE, onSuccess }));
  const busy = commit.isPending || branchFrom.isPending;
  const done = branchFrom.data ?? commit.data;
  const failure = branchFrom.error ?? commit.error ?? proposal.error;
  const message = typed ?? proposal.data?.message ?? "";

  const open = (next: Draft) => {
    commit.reset();
    branchFrom.reset();
    setRefusal(null);
    setDraft(next);
  };
  const submit = () => {
    if (!draft) return;
    if (message.trim() === "") {
      setRefusal("Write a commit message first.");
      return;
    }
    if (draft.branch !== null) branchFrom.mutate({ ...ref, message, branch: draft.branch.trim() });
    else commit.mutate({ ...ref, message });
  };

  return (
    <div className={styles.turnCommit}>
      {draft === null ? (
        <div className={styles.promptActions}>
          <button
            type="button"
            className="button"
            data-testid="turn-commit"
            onClick={() => open({ branch: null })}
          >
            Commit the turn
          </button>
          <button
            type="button"
            className="button"
            data-testid="turn-branch"
            onClick={() => open({ branch: suggestedBranch(turn.id) })}
          >
            New branch from the turn
          </button>
        </div>
      ) : (
        <form
          className={styles.turnCommit}
          data-testid="turn-commit-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {draft.branch !== null && (
            <input
              className="input"
              aria-label="New branch name"
              data-testid="turn-branch-name"
              value={draft.branch}
              onChange={(e) => setDraft({ branch: e.target.value })}
              // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked for it
              autoFocus
            />
          )}
          <input
            className="input"
            aria-label="Commit message"
            data-testid="turn-commit-message"
            data-proposed={proposal.isSuccess ? "true" : "false"}
            placeholder={proposal.isPending ? "Asking the model for a message…" : "Commit message"}
            value={message}
            onChange={(e) => {
              setTyped(e.target.value);
              setRefusal(null);
            }}
          />
          <div className={styles.promptActions}>
            <PendingButton
              type="submit"
              pending={busy}
              disabled={busy || (draft.branch !== null && draft.branch.trim() === "")}
              className="button primary"
              data-testid={draft.branch === null ? "turn-commit-confirm" : "turn-branch-create"}
            >
              {draft.branch === null ? "Commit" : "Create and commit"}
            </PendingButton>
            <button type="button" className="button" disabled={busy} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {busy && <div className={styles.muted}>Committing the turn…</div>}
      {done && !busy && draft === null && (
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
      {(refusal ?? failure) && !busy && (
        <div className={styles.toolError} role="alert" data-testid="turn-commit-error">
          {refusal ?? errorMessage(failure)}
        </div>
      )}
    </div>
  );
}
