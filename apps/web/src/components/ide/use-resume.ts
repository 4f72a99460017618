"use client";

import type { Workspace } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { isIdleStopped } from "../workspaces/workspace-status";

export interface Resume {
  /** This page asked the service to start the workspace again. */
  asked: boolean;
  /** The start request, while it is under way or when it failed. */
  starting: boolean;
  error: unknown;
  /** This page started the workspace again: say that what ran in it ended. */
  resumed: boolean;
  dismiss(): void;
}

/**
 * Opening a workspace that the service stopped for being idle starts it again (once per page),
 * whoever opens it (a guest too), and the page then says that the processes it ran were ended by
 * the stop.
 */
export function useResume(workspace: Workspace | undefined): Resume {
  const trpc = useTRPC();
  const start = useMutation(trpc.workspace.resume.mutationOptions({ meta: SHOWN_INLINE }));
  const [asked, setAsked] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const idle = workspace !== undefined && isIdleStopped(workspace);
  const workspaceId = workspace?.id;
  const { mutate } = start;
  useEffect(() => {
    if (!idle || asked || !workspaceId) return;
    setAsked(true);
    mutate({ workspaceId });
  }, [idle, asked, workspaceId, mutate]);
  return {
    asked,
    starting: start.isPending,
    error: start.error,
    resumed: asked && start.isSuccess && !dismissed,
    dismiss: () => setDismissed(true),
  };
}
