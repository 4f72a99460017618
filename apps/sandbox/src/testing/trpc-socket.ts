import { MAX_CALLS_PER_BATCH, SUBSCRIPTION_SOCKET_PATH } from "@coder/protocol";
import {
  createTRPCClient,
  createWSClient,
  httpBatchLink,
  splitLink,
  type TRPCClient,
  wsLink,
} from "@trpc/client";
import WebSocket from "ws";
import type { AppRouter } from "../trpc/router";

/** A page's API client as the web UI builds it: subscriptions over the one socket, calls over HTTP. */
export interface PageClient {
  api: TRPCClient<AppRouter>;
  /** Every close code the socket ended with, in order. */
  closes: number[];
  /** How many times the socket opened. */
  opens(): number;
  close(): Promise<void>;
}

export function pageClient(url: string, cookie: string): PageClient {
  const closes: number[] = [];
  let opened = 0;
  // A browser sends the cookie and the Origin with the upgrade; ws takes them as headers.
  class PageWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, { headers: { cookie, origin: url } });
    }
  }
  const socket = createWSClient({
    url: `${url.replace(/^http/, "ws")}${SUBSCRIPTION_SOCKET_PATH}`,
    WebSocket: PageWebSocket as unknown as typeof globalThis.WebSocket,
    retryDelayMs: () => 200,
    onOpen: () => opened++,
    onClose: (cause) => closes.push(cause?.code ?? 0),
  });
  const api = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: wsLink({ client: socket }),
        false: httpBatchLink({
          url: `${url}/api/trpc`,
          maxItems: MAX_CALLS_PER_BATCH,
          headers: () => ({ origin: url, cookie }),
        }),
      }),
    ],
  });
  return { api, closes, opens: () => opened, close: () => socket.close() };
}
