import { once } from "node:events";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { collabSocket } from "./collab-client";

const servers: net.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/**
 * A service that takes the connection and never answers the upgrade, so the socket stays
 * connecting; `hungUp` resolves once the client has given the connection up.
 */
async function silentService(): Promise<{ url: string; connected: Promise<unknown>; hungUp: Promise<void> }> {
  const server = net.createServer();
  servers.push(server);
  const connected = once(server, "connection");
  const hungUp = new Promise<void>((resolve) =>
    server.once("connection", (socket) => {
      socket.on("error", () => {});
      socket.once("close", () => resolve());
    }),
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connected, hungUp };
}

describe("the test collaboration client", () => {
  it("closes a socket that is still connecting without crashing the process that holds it", async () => {
    const { url, connected, hungUp } = await silentService();
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on("uncaughtException", onError);
    try {
      const socket = collabSocket(url, "session=x", "w1");
      await connected;
      socket.destroy();
      await hungUp;
      // ws reports "closed before the connection was established" on a later turn than the hang-up.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("uncaughtException", onError);
    }
    expect(errors).toEqual([]);
  });
});
