import net from "node:net";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../../testing/until";
import { FramedSocket, FrameKind, MAX_FRAME_BYTES } from "./framed-socket";

/** A real TCP connection on loopback: the accepting side framed, the other side raw. */
async function connected(onFrame: (kind: number, payload: Buffer) => void) {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
  const raw = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
  const framed = new FramedSocket(await accepted, onFrame);
  return { server, raw, framed };
}

function frame(kind: number, payload: Buffer, length = payload.length): Buffer {
  const header = Buffer.alloc(5);
  header[0] = kind;
  header.writeUInt32BE(length, 1);
  return Buffer.concat([header, payload]);
}

describe("a node channel's frames", () => {
  const servers: net.Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  it("reassembles frames cut anywhere by the network, in order", async () => {
    const got: [number, string][] = [];
    const { server, raw } = await connected((kind, payload) => got.push([kind, payload.toString()]));
    servers.push(server);
    const bytes = Buffer.concat([
      frame(FrameKind.control, Buffer.from('{"type":"close"}')),
      frame(FrameKind.data, Buffer.from("hello")),
    ]);
    for (let at = 0; at < bytes.length; at += 3) raw.write(bytes.subarray(at, at + 3));
    await until(() => got.length === 2, "both frames arrive");
    expect(got).toEqual([
      [FrameKind.control, '{"type":"close"}'],
      [FrameKind.data, "hello"],
    ]);
    raw.destroy();
  });

  it("drops the connection that announces a frame over the bound, before it is sent", async () => {
    const { server, raw, framed } = await connected(() => undefined);
    servers.push(server);
    raw.write(frame(FrameKind.data, Buffer.alloc(0), MAX_FRAME_BYTES + 1));
    await until(() => framed.socket.destroyed, "the connection is dropped");
    raw.destroy();
  });

  it("stops reading while the stream it feeds is full, and reads on once it drained", async () => {
    const sink = new PassThrough({ highWaterMark: 1024 });
    let framed: FramedSocket | undefined;
    const setup = await connected((_kind, payload) => framed?.deliver(sink, payload));
    framed = setup.framed;
    servers.push(setup.server);
    for (let i = 0; i < 64; i++) setup.raw.write(frame(FrameKind.data, Buffer.alloc(16 * 1024, 1)));
    await until(() => framed?.socket.isPaused() === true, "the socket is paused");
    const received = sink.readableLength;
    expect(received).toBeLessThan(64 * 16 * 1024);
    let total = 0;
    sink.on("data", (c: Buffer) => {
      total += c.length;
    });
    await until(() => total === 64 * 16 * 1024, "everything arrives once read");
    setup.raw.destroy();
  });
});
