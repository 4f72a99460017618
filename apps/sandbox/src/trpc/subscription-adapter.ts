import { applyWSSHandler } from "@trpc/server/adapters/ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { Context } from "./init";
import { appRouter } from "./router";

export type MessageListener = (this: WebSocket, data: Buffer, isBinary: boolean) => void;

/**
 * tRPC's `ws` adapter on a server of its own: the socket router accepts the upgrade, and the
 * adapter only hears of the connection (`emit("connection", ws, req)`) once the gate stands ready.
 */
export function subscriptionAdapter(
  contextOf: (ws: WebSocket) => Context,
  log: (line: string) => void,
): WebSocketServer {
  const server = new WebSocketServer({ noServer: true });
  applyWSSHandler({
    wss: server,
    router: appRouter,
    createContext: ({ res }) => contextOf(res),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") log(`trpc socket ${path ?? "?"}: ${error.cause ?? error}`);
    },
  });
  return server;
}

/** The adapter no longer registers the one reader the gate stands in front of. */
export class AdapterReaderChanged extends Error {
  constructor(count: number) {
    super(
      `@trpc/server's ws adapter registered ${count} "message" listeners on a subscription socket, not ` +
        "exactly one: the gate (trpc/subscription-socket.ts) cannot stand in front of them, so the " +
        "socket is refused; see how the installed @trpc/server reads a socket's messages",
    );
  }
}

/**
 * Takes the adapter's reader off `ws`, so that only the gate hears the socket and hands it what
 * passed. This leans on an internal detail of @trpc/server 11.x: on `connection` its adapter
 * registers exactly one `message` listener, at once. Should an upgrade register none yet (later, after
 * an await: the gate would be bypassed) or several (the gate would feed only one), this throws.
 */
export function takeAdapterReader(ws: WebSocket): MessageListener {
  const listeners = ws.listeners("message");
  const [reader] = listeners;
  if (listeners.length !== 1 || !reader) throw new AdapterReaderChanged(listeners.length);
  ws.removeAllListeners("message");
  return reader as MessageListener;
}
