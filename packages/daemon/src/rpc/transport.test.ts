import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Message, type ResponseMessage, StreamMessageReader } from "vscode-jsonrpc/node";
import { connectStreams } from "./transport";

let input: PassThrough;
let replies: ResponseMessage[];
let waiting: (() => void) | undefined;
let dispose: () => void;

/** Writes raw bytes as one Content-Length framed message, as a client would. */
function send(body: string): void {
  input.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

async function nextReply(): Promise<ResponseMessage> {
  while (replies.length === 0)
    await new Promise<void>((resolve) => {
      waiting = resolve;
    });
  return replies.shift() as ResponseMessage;
}

beforeEach(() => {
  input = new PassThrough();
  const output = new PassThrough();
  replies = [];
  const connection = connectStreams(input, output, () => {});
  connection.onRequest("echo", (params: unknown) => params);
  connection.listen();
  new StreamMessageReader(output).listen((message: Message) => {
    replies.push(message as ResponseMessage);
    waiting?.();
  });
  dispose = () => connection.dispose();
});
afterEach(() => dispose());

describe("a connection fed malformed input", () => {
  it("answers unparsable JSON with a parse error and keeps serving", async () => {
    send("{not json");
    expect(await nextReply()).toMatchObject({ id: null, error: { code: -32700 } });
    send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { ok: true } }));
    expect(await nextReply()).toMatchObject({ id: 1, result: { ok: true } });
  });

  it("answers JSON that is no JSON-RPC message with an invalid-request error carrying its id", async () => {
    send(JSON.stringify({ jsonrpc: "2.0", id: 7 }));
    expect(await nextReply()).toMatchObject({ id: 7, error: { code: -32600 } });
    send("42");
    expect(await nextReply()).toMatchObject({ id: null, error: { code: -32600 } });
    send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: 5 }));
    expect(await nextReply()).toMatchObject({ id: 8, error: { code: -32600 } });
  });
});
