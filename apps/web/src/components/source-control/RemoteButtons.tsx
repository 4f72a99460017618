"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./source-control.module.css";

export interface ProgressLine {
  progressId: string;
  line: string;
}

type RemoteAction = "fetch" | "pull" | "push";
const LABELS: Record<RemoteAction, string> = { fetch: "Fetch", pull: "Pull", push: "Push" };

/**
 * Fetch, Pull and Push: each answers when git has finished, showing git's progress meanwhile
 * (lines of `git.events` for the id this call chose) and git's own closing message or failure.
 * A branch without an upstream is pushed to origin and set to track it.
 */
export function RemoteButtons({
  workspaceId,
  hasUpstream,
  progress,
}: {
  workspaceId: string;
  hasUpstream: boolean;
  /** The latest progress line heard on the workspace. */
  progress: ProgressLine | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const egress = useQuery(trpc.workspace.get.queryOptions({ workspaceId })).data?.egress;
  const [running, setRunning] = useState<{ action: RemoteAction; progressId: string } | null>(null);
  const options = {
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
    const progressId = crypto.randomUUID();
    setRunning({ action, progressId });
    calls[action].mutate({
      workspaceId,
      progressId,
      setUpstream: action === "push" && !hasUpstream,
    });
  };
  const line = running && progress?.progressId === running.progressId ? progress.line : null;

  return (
    <div className={styles.remote}>
      <div className={styles.line}>
        {(["fetch", "pull", "push"] as const).map((action) => (
          <PendingButton
            key={action}
            pending={running?.action === action}
            className="button"
            data-testid={`git-${action}`}
            disabled={running !== null}
            onClick={() => start(action)}
          >
            {LABELS[action]}
          </PendingButton>
        ))}
      </div>
      {running && (
        <output className={styles.progress} data-testid="git-progress">
          {line ?? `${LABELS[running.action]}ing…`}
        </output>
      )}
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
