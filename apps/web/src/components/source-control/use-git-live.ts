"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useRef } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { useToasts } from "../toast/Toasts";

/**
 * Follows `git.events` so everyone on the workspace sees the same repository: when HEAD, the
 * index or a ref moves (by anyone: this panel, a terminal, the agent) every git view is asked
 * again; progress lines of fetches, pulls and pushes go to `onProgress`. (Edits of files in the
 * work tree come through `files.changes`, which ide/use-file-changes.ts follows.)
 */
export function useGitLive(
  workspaceId: string,
  enabled: boolean,
  onProgress: (progressId: string, line: string) => void,
): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const progress = useRef(onProgress);
  progress.current = onProgress;
  const refetchAll = () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });

  useSubscription(
    trpc.git.events.subscriptionOptions(
      { workspaceId },
      {
        enabled,
        // Status may have been fetched before the subscription started: close that gap.
        onStarted: () => void refetchAll(),
        onData: ({ data }) => {
          if (data.type === "progress") progress.current(data.progressId, data.line);
          else void refetchAll();
        },
        onError: (error) => {
          if (!redirectIfLoggedOut(error))
            toasts.error(`Live source control updates stopped: ${errorMessage(error)}`);
        },
      },
    ),
  );
}
