"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { useToasts } from "../toast/Toasts";

/**
 * Keeps the administration page's people (and the workspaces' owners) live: `user.changes` pings
 * when someone joins or an account changes, and once when it starts (closing the gap to the first
 * fetch); each ping re-reads the lists.
 */
export function usePeopleChanges(): void {
  const trpc = useTRPC();
  const toasts = useToasts();
  const refetch = usePeopleRefetch();
  useSubscription(
    trpc.user.changes.subscriptionOptions(undefined, {
      onData: refetch,
      onError: (error) => {
        // No control of the page shows this stream: a toast is the only place to say it stopped.
        if (!redirectIfLoggedOut(error))
          toasts.error(`Live updates of the people stopped: ${errorMessage(error)}`);
      },
    }),
  );
}

/** Re-reads the people and the workspaces with their owners (after a change, here or anywhere). */
export function usePeopleRefetch(): () => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.user.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.admin.workspaces.queryKey() });
  };
}
