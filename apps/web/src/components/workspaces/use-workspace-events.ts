"use client";

import type { WorkspaceEvent } from "@coder/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { useToasts } from "../toast/Toasts";
import { applyWorkspaceEvent } from "./workspace-events";

/**
 * Keeps every cached view of workspaces (the list, each `get`, each one's ports) live from `workspace.events`.
 * The SSE link resumes from the last tracked id after a reconnect; when the service cannot
 * replay what was missed it sends `resync`, and everything is refetched.
 */
export function useWorkspaceEvents(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toasts = useToasts();

  const refetchAll = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.workspace.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.preview.list.pathKey() }),
    ]);

  const apply = (event: WorkspaceEvent) => {
    if (event.type === "resync") {
      void refetchAll();
      return;
    }
    if (event.type === "ports") {
      // The whole list each time: the Ports panel (use-ports) shows it as it is.
      queryClient.setQueryData(trpc.preview.list.queryKey({ workspaceId: event.workspaceId }), {
        ports: event.ports,
      });
      return;
    }
    queryClient.setQueryData(trpc.workspace.list.queryKey(), (list) => applyWorkspaceEvent(list, event));
    if (event.type === "upsert") {
      queryClient.setQueryData(
        trpc.workspace.get.queryKey({ workspaceId: event.workspace.id }),
        event.workspace,
      );
    } else {
      void queryClient.invalidateQueries({
        queryKey: trpc.workspace.get.queryKey({ workspaceId: event.workspaceId }),
      });
    }
  };

  useSubscription(
    trpc.workspace.events.subscriptionOptions(undefined, {
      // The list may have been fetched before the subscription started: close that gap.
      onStarted: () => void refetchAll(),
      onData: (tracked) => apply(tracked.data),
      onError: (error) => {
        if (!redirectIfLoggedOut(error))
          toasts.error(`Live workspace updates stopped: ${errorMessage(error)}`);
      },
    }),
  );
}
