"use client";

import type { PreviewPort } from "@coder/protocol";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc/client";

/**
 * The workspace's listening ports, `undefined` until the first list came. The list is fetched
 * once while the workspace runs; the `ports` events of `workspace.events` (use-workspace-events)
 * replace it as ports open and close. A stopped workspace listens on nothing.
 */
export function usePorts(workspaceId: string, running: boolean): readonly PreviewPort[] | undefined {
  const trpc = useTRPC();
  const list = useQuery(trpc.preview.list.queryOptions({ workspaceId }, { enabled: running }));
  return running ? list.data?.ports : noPorts;
}

const noPorts: readonly PreviewPort[] = [];
