"use client";

import type { SessionDetail, StoredSessionEvent } from "@coder/protocol";
import { useQuery } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useEffect, useReducer, useRef, useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { applyEvent, type ChatState, stateFromDetail } from "./session-state";

type Action = { type: "load"; state: ChatState } | { type: "event"; event: StoredSessionEvent };

function reduce(state: ChatState | null, action: Action): ChatState | null {
  if (action.type === "load") return action.state;
  return state ? applyEvent(state, action.event) : state;
}

export interface ChatSession {
  state: ChatState | null;
  loadError: unknown;
  /** Set while the live stream is broken (the link retries by itself). */
  streamError: string | null;
}

/**
 * One session as the chat shows it: `session.get` once, then `session.events` from the id that
 * snapshot ends at. The SSE link resumes from the last tracked id after a drop, and the reducer
 * skips ids it has seen, so the conversation has neither gaps nor doubles.
 */
export function useChatSession(sessionId: string): ChatSession {
  const trpc = useTRPC();
  const detail = useQuery({
    ...trpc.session.get.queryOptions({ sessionId }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const [state, dispatch] = useReducer(reduce, null);
  // The snapshot the stream continues from is fixed once: a refetch must not restart the stream.
  const from = useRef<string | null | undefined>(undefined);
  const [streamError, setStreamError] = useState<string | null>(null);

  useEffect(() => {
    if (detail.data && from.current === undefined) {
      from.current = detail.data.lastEventId;
      // JSON typing marks `unknown` fields (a tool's input) optional; the values are the schema's.
      dispatch({ type: "load", state: stateFromDetail(detail.data as SessionDetail) });
    }
  }, [detail.data]);

  useSubscription(
    trpc.session.events.subscriptionOptions(
      { sessionId, lastEventId: from.current ?? null },
      {
        enabled: state !== null,
        onData: ({ data }) => {
          setStreamError(null);
          dispatch({ type: "event", event: data as StoredSessionEvent });
        },
        onError: (error) => {
          if (!redirectIfLoggedOut(error)) setStreamError(errorMessage(error));
        },
        // The page's socket dropped (a network blip, a restart): it reconnects and the stream resumes.
        onConnectionStateChange: (change) => {
          if (change.state === "connecting" && change.error) setStreamError(errorMessage(change.error));
          if (change.state === "pending") setStreamError(null);
        },
      },
    ),
  );

  return { state, loadError: detail.error, streamError };
}
