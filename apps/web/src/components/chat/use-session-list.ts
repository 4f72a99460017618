"use client";

import type { Session } from "@coder/protocol";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";

export interface SessionList {
  /** The workspace's conversations; undefined until the first list arrived. */
  sessions: Session[] | undefined;
  /** Set while the live list is broken (the link retries by itself). */
  error: string | null;
}

/**
 * The workspace's conversations, live: `session.watchList` sends the whole list when it starts
 * and again whenever someone starts, renames or deletes one or a turn starts or ends, so a guest's
 * panel shows the owner's new conversation without a reload.
 */
export function useSessionList(workspaceId: string): SessionList {
  const trpc = useTRPC();
  const [sessions, setSessions] = useState<Session[] | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useSubscription(
    trpc.session.watchList.subscriptionOptions(
      { workspaceId },
      {
        onData: (list) => {
          setError(null);
          setSessions(list as Session[]);
        },
        onError: (e) => {
          if (!redirectIfLoggedOut(e)) setError(errorMessage(e));
        },
      },
    ),
  );
  return { sessions, error };
}
