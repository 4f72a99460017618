"use client";

import type { TalkLine } from "@coder/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { accessEnded } from "../../lib/auth/access-ended";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC, useTRPCClient } from "../../lib/trpc/client";
import { withNewerLines } from "./newer-lines";

export interface Talk {
  /** The lines so far, oldest first; undefined until the first answer arrived. */
  lines: TalkLine[] | undefined;
  viewersMayWrite: boolean;
  youMayWrite: boolean;
  /** Set while the talk cannot be read (the next look retries by itself). */
  error: string | null;
}

/**
 * How often the page looks for new lines. The talk is read by asking, not through `talk.watch`:
 * a page already holds five event streams, and Chromium gives one host six HTTP/1.1 connections,
 * so a sixth held stream stalls every other call of the page. One multiplexed live channel per page
 * would let it follow `talk.watch` again.
 */
const LOOK_EVERY_MS = 1500;

const notEnded = () => null;

/**
 * The workspace's people's talk, looked at again every 1.5 s: the first look brings every kept
 * line, each later one (and each the page asks for after a change) only the lines after the
 * page's last.
 */
export function useTalk(workspaceId: string): Talk {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const queryKey = trpc.talk.list.queryKey({ workspaceId });
  const ended = useSyncExternalStore(accessEnded.subscribe, accessEnded.snapshot, notEnded);
  const talk = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const shown = queryClient.getQueryData(queryKey);
      const look = await client.talk.list.query({ workspaceId, after: shown?.lines.at(-1)?.id }, { signal });
      return shown ? withNewerLines(shown, look) : look;
    },
    refetchInterval: LOOK_EVERY_MS,
    // Once access ended for good nothing answers; a look after a revoked guest's "Leave" logged
    // them out would be refused as logged out and send the page to the login, not where they went.
    enabled: ended === null,
  });
  useEffect(() => {
    if (talk.error) redirectIfLoggedOut(talk.error);
  }, [talk.error]);
  return {
    lines: talk.data?.lines,
    viewersMayWrite: talk.data?.viewersMayWrite ?? true,
    youMayWrite: talk.data?.youMayWrite ?? false,
    error: talk.error && !talk.data ? errorMessage(talk.error) : null,
  };
}
