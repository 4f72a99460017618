import type { StoredSessionEvent } from "@coder/protocol";
import { subscriptionEvents } from "../../testing/trpc-sse";

/** `session.events` over the wire, the way a browser receives it. */
export function sessionEventStream(
  url: string,
  cookie: string,
  sessionId: string,
  signal: AbortSignal,
  lastEventId?: string,
): AsyncGenerator<StoredSessionEvent> {
  const input = { sessionId, ...(lastEventId ? { lastEventId } : {}) };
  return subscriptionEvents<StoredSessionEvent>(url, cookie, "session.events", input, signal);
}
