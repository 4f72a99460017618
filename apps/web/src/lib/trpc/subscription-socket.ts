import { AccessCloseCode, SUBSCRIPTION_SOCKET_PATH } from "@coder/protocol";
import { createWSClient, type TRPCWebSocketClient } from "@trpc/client";
import { reportAccessEnded } from "../auth/access-ended";

/** Waits between reconnection attempts: at once, then longer, at most 10 s (a restart takes seconds). */
export function reconnectDelayMs(attempt: number): number {
  return attempt === 0 ? 0 : Math.min(500 * 2 ** attempt, 10_000);
}

/**
 * The page's one WebSocket to the service, which carries every subscription (workspace list, files,
 * presence, talk, the agent's sessions, git): one connection, whatever the page follows, where one
 * SSE stream per subscription exhausted the browser's six connections per origin and stalled the
 * page's calls. Opened with the first subscription and closed a while after the last. After a
 * network blip or a restart it reconnects and resumes every subscription from its last event; each
 * shows "connecting" meanwhile. Closed by the service because access ended, it stops: a guest whose
 * link ended sees why, anyone else goes to the login.
 */
export function createSubscriptionSocket(): TRPCWebSocketClient {
  const socket: TRPCWebSocketClient = createWSClient({
    url: () =>
      `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${SUBSCRIPTION_SOCKET_PATH}`,
    lazy: { enabled: true, closeMs: 30_000 },
    // A connection that died without a close (a laptop asleep, a dropped route) is noticed.
    keepAlive: { enabled: true, intervalMs: 15_000, pongTimeoutMs: 10_000 },
    retryDelayMs: reconnectDelayMs,
    onClose(cause) {
      const code = cause?.code;
      if (code === undefined) return;
      if (reportAccessEnded(code)) {
        void socket.close();
      } else if (code === AccessCloseCode.LoggedOut) {
        void socket.close();
        window.location.assign("/login");
      }
    },
  });
  return socket;
}
