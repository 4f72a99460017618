import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import { SUBSCRIPTION_SOCKET_PATH } from "@coder/protocol";
import { getTRPCErrorShape } from "@trpc/server";
import { WebSocket } from "ws";
import { z } from "zod";
import type { ConnectionRegistry } from "../auth/connection-registry";
import type { Principal } from "../auth/principal";
import type { PageSocketRoute } from "../sockets/socket-route";
import { accessEndedError, type Context } from "./init";
import { appRouter } from "./router";
import { type MessageListener, subscriptionAdapter, takeAdapterReader } from "./subscription-adapter";

/** A subscription's start or stop is small; a larger frame closes the socket (ws answers 1009). */
const MAX_FRAME_BYTES = 64 * 1024;
/** Subscriptions started and not stopped on one socket (an IDE page holds about ten). */
export const MAX_OPEN_SUBSCRIPTIONS = 100;
/** Frames per window on one socket: a reconnect re-sends every subscription at once; more is a flood. */
export const MAX_FRAMES_PER_WINDOW = 300;
const FRAME_WINDOW_MS = 10_000;
/** Time for the close frame to leave before a dropped socket is cut. */
const CLOSE_GRACE_MS = 1000;

const requestId = z.union([z.number().int(), z.string().max(64)]);
type RequestId = z.infer<typeof requestId>;
const message = z.discriminatedUnion("method", [
  z.object({
    id: requestId,
    method: z.literal("subscription"),
    params: z.object({
      path: z.string().max(100),
      input: z.unknown().optional(),
      lastEventId: z.string().max(200).nullish(),
    }),
  }),
  z.object({ id: requestId, method: z.literal("subscription.stop") }),
]);
type Message = z.infer<typeof message>;
const frame = z.union([message.transform((m) => [m]), z.array(message).max(MAX_OPEN_SUBSCRIPTIONS)]);

/** The messages of a text frame, or null when it is anything but subscription starts and stops. */
function parseFrame(text: string): Message[] | null {
  try {
    const parsed = frame.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface SubscriptionSocketDeps {
  /** The context of calls made for `principal` through `req`: the same as an HTTP call's. */
  contextFor(req: IncomingMessage, principal: Principal, subscribedTo: Context["subscribedTo"]): Context;
  connections: ConnectionRegistry;
  log(line: string): void;
}

/**
 * The page's subscriptions over one WebSocket (tRPC's `ws` adapter), so that a page never holds
 * more than one connection open to the service, whatever it follows: a browser opens at most six
 * HTTP/1.1 connections to an origin, and one SSE stream per subscription starved the page's calls.
 * Queries and mutations stay on HTTP, where each call reads its cookie again; a socket that sends
 * anything but subscription starts and stops, or floods, is dropped.
 *
 * The socket itself is registered under its principal by the socket router (logout, suspension or
 * a revoked link closes it with the code); each subscription on a workspace is registered on its
 * own, so ending the caller's role there ends those subscriptions, with the code in their error,
 * and leaves the socket and the rest open.
 */
export function subscriptionSocketRoute(deps: SubscriptionSocketDeps): PageSocketRoute {
  const contexts = new WeakMap<WebSocket, Context>();
  const adapterServer = subscriptionAdapter((ws) => {
    const ctx = contexts.get(ws);
    if (!ctx) throw new Error("a subscription socket the router did not accept");
    return ctx;
  }, deps.log);
  return {
    path: SUBSCRIPTION_SOCKET_PATH,
    maxPayload: MAX_FRAME_BYTES,
    serve(ws, req, principal) {
      gateSubscriptions(ws, principal, deps, (subscribedTo) => {
        contexts.set(ws, deps.contextFor(req, principal, subscribedTo));
        adapterServer.emit("connection", ws, req);
      });
    },
  };
}

/**
 * Starts the adapter on `ws` (`startAdapter`, given the context's `subscribedTo`, which registers
 * each subscription on its workspace) behind a gate that validates and bounds every frame.
 */
function gateSubscriptions(
  ws: WebSocket,
  principal: Principal,
  deps: SubscriptionSocketDeps,
  startAdapter: (subscribedTo: NonNullable<Context["subscribedTo"]>) => void,
): void {
  // Which request a subscription's procedure runs for, so the middleware's tag reaches its id.
  const requestOf = new AsyncLocalStorage<RequestId>();
  const open = new Set<RequestId>();
  const subscribedTo = (workspaceId: string) => {
    const id = requestOf.getStore();
    if (id === undefined) return () => {};
    return deps.connections.add(principal, { end: (code) => endSubscription(id, code) }, workspaceId);
  };
  startAdapter(subscribedTo);
  // The adapter's own reader runs behind the gate below, which validates and bounds every frame.
  let adapter: MessageListener;
  try {
    adapter = takeAdapterReader(ws);
  } catch (error) {
    ws.removeAllListeners("message");
    deps.log(`trpc socket: ${(error as Error).message}`);
    ws.close(1011, "the service cannot serve subscriptions");
    return;
  }
  const deliver = (m: Message) =>
    requestOf.run(m.id, () => adapter.call(ws, Buffer.from(JSON.stringify(m)), false));

  // The error tells the page why (the same answer a refused call gets); the stop makes the adapter
  // abort the procedure's signal, so its stream releases what it holds.
  function endSubscription(id: RequestId, code: Parameters<typeof accessEndedError>[0]): void {
    if (!open.delete(id) || ws.readyState !== WebSocket.OPEN) return;
    const error = getTRPCErrorShape({
      config: appRouter._def._config,
      error: accessEndedError(code),
      type: "subscription",
      path: undefined,
      input: undefined,
      ctx: undefined,
    });
    ws.send(JSON.stringify({ id, error }));
    deliver({ id, method: "subscription.stop" });
  }

  const drop = (reason: string) => {
    deps.log(
      `trpc socket: dropped a connection of ${principal.kind} ${principal.sessionId.slice(0, 8)}: ${reason}`,
    );
    ws.removeAllListeners("message");
    ws.close(1008, reason);
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  };
  let windowStart = Date.now();
  let frames = 0;
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (Date.now() - windowStart > FRAME_WINDOW_MS) {
      windowStart = Date.now();
      frames = 0;
    }
    if (++frames > MAX_FRAMES_PER_WINDOW) return drop("too many messages");
    const text = isBinary ? null : data.toString("utf8");
    // The client's keep-alive; the adapter answers it.
    if (text === "PING" || text === "PONG") return adapter.call(ws, data, false);
    const messages = text === null ? null : parseFrame(text);
    if (!messages) return drop("this socket carries subscription starts and stops only");
    for (const m of messages) {
      if (m.method === "subscription.stop") open.delete(m.id);
      else if (open.add(m.id).size > MAX_OPEN_SUBSCRIPTIONS) return drop("too many subscriptions");
      deliver(m);
    }
  });
}
