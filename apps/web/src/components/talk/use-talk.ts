"use client";

import { TALK_KEPT_MESSAGES, type TalkLine, type TalkUpdate } from "@coder/protocol";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";

export interface Talk {
  /** The lines so far, oldest first; undefined until the first batch arrived. */
  lines: TalkLine[] | undefined;
  viewersMayWrite: boolean;
  youMayWrite: boolean;
  /** Set while the live talk is broken (the link retries by itself). */
  error: string | null;
}

/**
 * The workspace's people's talk, live: `talk.watch` sends the kept lines, then each new batch and
 * each change of the owner's setting; a reconnect continues after the last line (tracked ids).
 */
export function useTalk(workspaceId: string): Talk {
  const trpc = useTRPC();
  const [lines, setLines] = useState<TalkLine[] | undefined>(undefined);
  const [setting, setSetting] = useState({ viewersMayWrite: true, youMayWrite: false });
  const [error, setError] = useState<string | null>(null);
  useSubscription(
    trpc.talk.watch.subscriptionOptions(
      { workspaceId },
      {
        onData: (event) => {
          const update = event.data as TalkUpdate;
          setError(null);
          setLines((known) => {
            const seen = new Set((known ?? []).map((line) => line.id));
            const fresh = update.lines.filter((line) => !seen.has(line.id));
            return [...(known ?? []), ...fresh].slice(-TALK_KEPT_MESSAGES);
          });
          setSetting({ viewersMayWrite: update.viewersMayWrite, youMayWrite: update.youMayWrite });
        },
        onError: (e) => {
          if (!redirectIfLoggedOut(e)) setError(errorMessage(e));
        },
      },
    ),
  );
  return { lines, ...setting, error };
}
