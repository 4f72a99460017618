"use client";

import type { GitStatus } from "@coder/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "../../lib/trpc/client";

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
