"use client";

import type { GitEvent } from "@coder/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { useTRPC } from "../../lib/trpc/client";

/** Progress lines kept per call: git's last lines are what a person reads. */
const MAX_PROGRESS_LINES = 50;
/** Calls whose progress is kept (this tab's and others' fetches, pulls and pushes). */
const MAX_PROGRESS_CALLS = 8;

/** The progress lines of the calls heard, by progress id. */
export type ProgressLines = (progressId: string | null) => readonly string[];

const NO_LINES: readonly string[] = [];

/**
 * Follows `git.events` for the workspace while the panel shows: when HEAD, the index or a ref moved
 * (a commit, checkout or fetch by anyone — another person, a terminal, the agent) or after a gap
 * the service cannot replay, every git view is asked again; git's progress lines of running
 * fetches, pulls and pushes are kept by their progress id. (It rides the page's one socket, so it
 * costs no connection of its own.)
 */
export function useGitEvents(workspaceId: string, enabled: boolean): ProgressLines {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<ReadonlyMap<string, readonly string[]>>(new Map());

  const apply = (event: GitEvent) => {
    if (event.type !== "progress") {
      void queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });
      return;
    }
    setProgress((before) => {
      const lines = [...(before.get(event.progressId) ?? []), event.line].slice(-MAX_PROGRESS_LINES);
      const after = new Map(before);
      after.delete(event.progressId);
      after.set(event.progressId, lines);
      // The oldest calls are forgotten first (a Map keeps insertion order).
      for (const id of after.keys()) {
        if (after.size <= MAX_PROGRESS_CALLS) break;
        after.delete(id);
      }
      return after;
    });
  };

  useSubscription(
    trpc.git.events.subscriptionOptions(
      { workspaceId },
      {
        enabled,
        // Status may have been read before the subscription started: close that gap.
        onStarted: () => void queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() }),
        onData: ({ data }) => apply(data),
        onError: (error) => void redirectIfLoggedOut(error),
      },
    ),
  );

  return useCallback((id) => (id === null ? NO_LINES : (progress.get(id) ?? NO_LINES)), [progress]);
}
