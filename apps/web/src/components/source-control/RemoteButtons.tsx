"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import { GitProgress } from "./GitProgress";
import styles from "./source-control.module.css";
import type { ProgressLines } from "./use-git-events";

type RemoteAction = "fetch" | "pull" | "push";
const LABELS: Record<RemoteAction, string> = { fetch: "Fetch", pull: "Pull", push: "Push" };

/**
 * Fetch, Pull and Push: each answers when git has finished with git's own closing message or
 * failure; meanwhile the button spins and git's progress lines show as they come (`git.events`,
 * recognised by the progress id this call chose). A branch without an upstream is pushed to origin
 * and set to track it.
 */
export function RemoteButtons({
  workspaceId,
  hasUpstream,
  progress,
}: {
  workspaceId: string;
  hasUpstream: boolean;
  progress: ProgressLines;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const egress = useQuery(trpc.workspace.get.queryOptions({ workspaceId })).data?.egress;
  const [running, setRunning] = useState<RemoteAction | null>(null);
  const [progressId, setProgressId] = useState<string | null>(null);
  const options = {
    meta: SHOWN_INLINE,
    onSettled: () => {
      setRunning(null);
      void queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });
    },
  };
  const calls = {
    fetch: useMutation(trpc.git.fetch.mutationOptions(options)),
    pull: useMutation(trpc.git.pull.mutationOptions(options)),
    push: useMutation(trpc.git.push.mutationOptions(options)),
  };
  const last = Object.values(calls).find((call) => call.isError || call.isSuccess);

  const start = (action: RemoteAction) => {
    for (const call of Object.values(calls)) call.reset();
    setRunning(action);
    const id = crypto.randomUUID();
    setProgressId(id);
    calls[action].mutate({ workspaceId, setUpstream: action === "push" && !hasUpstream, progressId: id });
  };

  return (
    <div className={styles.remote}>
      <div className={styles.line}>
        {(["fetch", "pull", "push"] as const).map((action) => (
          <PendingButton
            key={action}
            pending={running === action}
            className="button"
            data-testid={`git-${action}`}
            disabled={running !== null}
            onClick={() => start(action)}
          >
            {LABELS[action]}
          </PendingButton>
        ))}
      </div>
      {running && <GitProgress label={`${LABELS[running]}ing`} lines={progress(progressId)} />}
      {egress === false && (
        <p className={styles.muted} data-testid="git-no-egress">
          This workspace has no network access: pushes, pulls and fetches need egress (the owner can turn it
          on) unless the administrator allowed the git host.
        </p>
      )}
      {!running && last?.isError && (
        <p className={styles.error} role="alert" data-testid="git-remote-error">
          {errorMessage(last.error)}
        </p>
      )}
      {!running && last?.isSuccess && (
        <output className={styles.muted} data-testid="git-remote-message">
          {last.data.message}
        </output>
      )}
    </div>
  );
}
