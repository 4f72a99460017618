"use client";

import type { GitStatus } from "@coder/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "../../lib/trpc/client";

/**
 * While the panel shows, `git.status` is asked again every this long (and at once when files
 * change, see ide/use-file-changes.ts), so a commit, checkout or fetch made by anyone — another
 * person, a terminal, the agent — shows here. Polled rather than followed through `git.events`:
 * the IDE already holds five live streams (SSE) and a browser opens at most six connections to
 * one HTTP/1.1 origin, so a sixth held stream stalls every other request of the page.
 */
export const GIT_STATUS_POLL_MS = 3000;

/** Asks log and branches again when status says HEAD, the branch or the upstream moved. */
export function useGitRefresh(workspaceId: string, status: GitStatus | undefined): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const moved = status
    ? [status.head, status.branch, status.upstream, status.ahead, status.behind].join("\n")
    : null;
  useEffect(() => {
    if (moved === null) return;
    void queryClient.invalidateQueries({ queryKey: trpc.git.log.queryKey({ workspaceId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.git.branches.queryKey({ workspaceId }) });
  }, [moved, queryClient, trpc, workspaceId]);
}
