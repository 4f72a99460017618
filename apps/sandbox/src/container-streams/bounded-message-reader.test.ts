import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createMessageConnection, type Message, StreamMessageWriter } from "vscode-jsonrpc/node";
import { BoundedMessageReader } from "./bounded-message-reader";
import { FrameViolation } from "./frame-decoder";

const limits = { maxHeaderBytes: 8 * 1024, maxMessageBytes: 64 * 1024 };

function frame(body: string): Buffer {
  return Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** Lets the stream deliver what was written. */
const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A reader on a fresh stream, with what it delivered, reported and whether it closed. */
function listen() {
  const stream = new PassThrough();
  const reader = new BoundedMessageReader(stream, limits);
  const messages: Message[] = [];
  const errors: Error[] = [];
  let closes = 0;
  reader.onError((e) => errors.push(e));
  reader.onClose(() => closes++);
  reader.listen((m) => messages.push(m));
  return { stream, reader, messages, errors, closes: () => closes };
}

describe("the bounded JSON-RPC reader", () => {
  it("carries a request and its response through vscode-jsonrpc's connection", async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = createMessageConnection(
      new BoundedMessageReader(toServer, limits),
      new StreamMessageWriter(toClient),
    );
    const client = createMessageConnection(
      new BoundedMessageReader(toClient, limits),
      new StreamMessageWriter(toServer),
    );
    server.onRequest("add", (p: { a: number; b: number }) => p.a + p.b);
    server.listen();
    client.listen();
    expect(await client.sendRequest("add", { a: 2, b: 3 })).toBe(5);
    server.dispose();
    client.dispose();
  });

  it("hands on requests, notifications and responses", async () => {
    const r = listen();
    const sent = [
      { jsonrpc: "2.0", id: 1, method: "a", params: { x: 1 } },
      { jsonrpc: "2.0", method: "b", params: [1] },
      { jsonrpc: "2.0", method: "c" },
      { jsonrpc: "2.0", id: "s", result: null },
      { jsonrpc: "2.0", id: 2, error: { code: -32000, message: "no", data: { why: 1 } } },
    ];
    r.stream.write(Buffer.concat(sent.map((m) => frame(JSON.stringify(m)))));
    await delivered();
    expect(r.messages).toEqual(sent);
    expect(r.errors).toEqual([]);
  });

  it("drops the stream at a body that is not JSON, once, and reads nothing after it", async () => {
    const r = listen();
    r.stream.write(Buffer.concat([frame("{nope"), frame('{"jsonrpc":"2.0","method":"late"}')]));
    r.stream.write(frame('{"jsonrpc":"2.0","method":"later"}'));
    await delivered();
    expect(r.messages).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toBeInstanceOf(FrameViolation);
    expect(r.errors[0]?.message).toBe("a message is not JSON");
    expect(r.closes()).toBe(1);
    r.stream.end();
    await delivered();
    expect(r.closes()).toBe(1);
  });

  it("refuses JSON that is not one JSON-RPC 2.0 message", async () => {
    for (const body of [
      "[]",
      '[{"jsonrpc":"2.0","method":"batch"}]',
      "42",
      "null",
      '{"method":"no version"}',
      '{"jsonrpc":"1.0","method":"old"}',
      '{"jsonrpc":"2.0","id":{},"method":"odd id"}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}',
      '{"jsonrpc":"2.0","method":"p","params":"text"}',
      '{"jsonrpc":"2.0","method":7}',
    ]) {
      const r = listen();
      r.stream.write(frame(body));
      await delivered();
      expect(r.messages, body).toEqual([]);
      expect(r.errors[0]?.message, body).toBe("a message is not a JSON-RPC 2.0 message");
    }
  });

  it("drops the stream when a header announces more than the cap, before the body comes", async () => {
    const r = listen();
    r.stream.write(Buffer.from("Content-Length: 1073741824\r\n\r\n"));
    await delivered();
    expect(r.errors.map((e) => (e as FrameViolation).kind)).toEqual(["too_big"]);
    expect(r.closes()).toBe(1);
    r.stream.write(Buffer.alloc(1024 * 1024));
    await delivered();
    expect(r.errors).toHaveLength(1);
  });

  it("reports a handler's error without dropping the stream", async () => {
    const stream = new PassThrough();
    const reader = new BoundedMessageReader(stream, limits);
    const errors: Error[] = [];
    const seen: string[] = [];
    reader.onError((e) => errors.push(e));
    reader.listen((m) => {
      seen.push(String((m as unknown as { method: string }).method));
      if (seen.length === 1) throw new Error("handler bug");
    });
    stream.write(
      Buffer.concat([frame('{"jsonrpc":"2.0","method":"a"}'), frame('{"jsonrpc":"2.0","method":"b"}')]),
    );
    await delivered();
    expect(seen).toEqual(["a", "b"]);
    expect(errors.map((e) => e.message)).toEqual(["handler bug"]);
  });

  it("closes once when the stream ends", async () => {
    const r = listen();
    r.stream.end();
    await delivered();
    expect(r.closes()).toBe(1);
  });
});
