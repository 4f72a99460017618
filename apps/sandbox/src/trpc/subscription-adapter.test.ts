import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { Context } from "./init";
import { AdapterReaderChanged, subscriptionAdapter, takeAdapterReader } from "./subscription-adapter";

/** The server side of a real WebSocket connection, with what it was opened by. */
async function serverSocket(): Promise<{ ws: WebSocket; req: IncomingMessage; close(): Promise<void> }> {
  const server = new WebSocketServer({ port: 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const accepted = new Promise<[WebSocket, IncomingMessage]>((resolve) =>
    server.once("connection", (ws, req) => resolve([ws, req])),
  );
  const { port } = server.address() as { port: number };
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const [[ws, req]] = await Promise.all([accepted, new Promise((resolve) => client.once("open", resolve))]);
  return {
    ws,
    req,
    close: async () => {
      client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("the subscription gate's hold on tRPC's ws adapter", () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  it("the installed @trpc/server adapter gives the gate exactly one message reader, at once", async () => {
    const socket = await serverSocket();
    opened.push(socket);
    const adapter = subscriptionAdapter(
      () => ({}) as Context,
      () => undefined,
    );
    adapter.emit("connection", socket.ws, socket.req);
    // An upgrade of @trpc/server that registers none (yet) or several fails here, with the reason.
    const reader = takeAdapterReader(socket.ws);
    expect(reader).toBeTypeOf("function");
    expect(socket.ws.listenerCount("message")).toBe(0);
  });

  it("a socket whose adapter registered no reader, or several, is refused with a message saying why", async () => {
    const socket = await serverSocket();
    opened.push(socket);
    expect(() => takeAdapterReader(socket.ws)).toThrow(AdapterReaderChanged);
    expect(() => takeAdapterReader(socket.ws)).toThrow(
      /registered 0 "message" listeners on a subscription socket, not exactly one: the gate/,
    );
    socket.ws.on("message", () => undefined);
    socket.ws.on("message", () => undefined);
    expect(() => takeAdapterReader(socket.ws)).toThrow(/registered 2 "message" listeners/);
  });
});
