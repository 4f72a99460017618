import type { ServerResponse } from "node:http";
import { accessRefusal } from "@coder/protocol";
import type { WebSocket } from "ws";
import type { LiveConnection } from "../auth/connection-registry";

/** Time for the close frame to leave before the socket is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * A WebSocket as revocation ends it: the close frame carries the code (the browser shows why and
 * does not reconnect), frames the client still sends reach nothing, and the socket is cut soon
 * after if the client does not answer the close.
 */
export function socketConnection(ws: WebSocket): LiveConnection {
  return {
    end(code) {
      ws.removeAllListeners("message");
      ws.close(code, accessRefusal(code)?.message ?? "");
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
}

/**
 * A tRPC subscription's SSE response. Destroying it aborts the request signal that tRPC hands the
 * procedure (its `signal`), so the subscription's generator returns and releases what it holds;
 * the browser's EventSource reconnects, is refused, and the page goes to the login.
 */
export function responseConnection(res: ServerResponse): LiveConnection {
  return {
    end() {
      res.destroy();
    },
  };
}
