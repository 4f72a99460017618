import { afterEach, describe, expect, it, vi } from "vitest";
import { FrameDecoder, FrameViolation } from "./frame-decoder";

const limits = { maxHeaderBytes: 8 * 1024, maxMessageBytes: 1024 * 1024 };

function frame(body: string): Buffer {
  return Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

function decodeAll(decoder: FrameDecoder, chunks: Buffer[]): string[] {
  return chunks.flatMap((chunk) => decoder.push(chunk).map((b) => b.toString()));
}

function violation(run: () => unknown): FrameViolation {
  try {
    run();
  } catch (error) {
    if (error instanceof FrameViolation) return error;
    throw error;
  }
  throw new Error("no violation");
}

describe("the Content-Length frame decoder", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("reads one message from one chunk", () => {
    expect(decodeAll(new FrameDecoder(limits), [frame('{"a":1}')])).toEqual(['{"a":1}']);
  });

  it("reads a header split at every possible byte", () => {
    const bytes = frame('{"jsonrpc":"2.0"}');
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new FrameDecoder(limits);
      expect(decodeAll(decoder, [bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([
        '{"jsonrpc":"2.0"}',
      ]);
    }
  });

  it("reads several messages out of one chunk, and one that ends in the next", () => {
    const decoder = new FrameDecoder(limits);
    const third = frame('"three"');
    const chunk = Buffer.concat([frame('"one"'), frame('"two"'), third.subarray(0, 5)]);
    expect(decodeAll(decoder, [chunk])).toEqual(['"one"', '"two"']);
    expect(decodeAll(decoder, [third.subarray(5)])).toEqual(['"three"']);
  });

  it("reads messages fed one byte at a time", () => {
    const bytes = Buffer.concat([frame('"é"'), frame("{}"), frame("[1,2]")]);
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(decodeAll(new FrameDecoder(limits), chunks)).toEqual(['"é"', "{}", "[1,2]"]);
  });

  it("takes other headers and any case of Content-Length", () => {
    const bytes = Buffer.from(
      "content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:  2\r\n\r\n{}",
    );
    expect(decodeAll(new FrameDecoder(limits), [bytes])).toEqual(["{}"]);
  });

  it("refuses a header that runs past 8 KB without ending, without holding more", () => {
    const decoder = new FrameDecoder(limits);
    const junk = Buffer.alloc(1024, 0);
    for (let i = 0; i < 7; i++) decoder.push(junk);
    expect(decoder.bufferedBytes).toBe(7 * 1024);
    const error = violation(() => decoder.push(Buffer.alloc(1024 * 1024, 0)));
    expect(error.kind).toBe("header_too_long");
    expect(error.message).toBe("a message header ran past 8 KB without ending");
  });

  it("refuses a message larger than the cap as soon as its header says so", () => {
    const decoder = new FrameDecoder(limits);
    const error = violation(() => decoder.push(Buffer.from("Content-Length: 99999999999\r\n\r\n")));
    expect(error).toMatchObject({ kind: "too_big" });
    expect(error.message).toBe("a message announced 99999999999 bytes, more than 1 MB");
    expect(decoder.bufferedBytes).toBe(0);
  });

  it("refuses headers without a usable Content-Length", () => {
    for (const header of [
      "Content-Type: x\r\n\r\n",
      "Content-Length: -1\r\n\r\n",
      "Content-Length: 1e3\r\n\r\n",
      "Content-Length: 2\r\nContent-Length: 2\r\n\r\n",
      "no colon here\r\n\r\n",
      "\r\n\r\n",
    ]) {
      expect(violation(() => new FrameDecoder(limits).push(Buffer.from(header))).kind, header).toBe(
        "bad_header",
      );
    }
  });

  it("stays broken after a violation: later bytes are not read", () => {
    const decoder = new FrameDecoder(limits);
    violation(() => decoder.push(Buffer.from("Content-Length: x\r\n\r\n")));
    expect(violation(() => decoder.push(frame("{}"))).kind).toBe("bad_header");
  });

  it("copies a big message once however many chunks it came in", () => {
    const size = 1_000_000;
    const body = Buffer.alloc(size, 0x61);
    const bytes = Buffer.concat([Buffer.from(`Content-Length: ${size}\r\n\r\n`), body]);
    const concat = vi.spyOn(Buffer, "concat");
    const decoder = new FrameDecoder(limits);
    const pieces = 100_000;
    const step = Math.ceil(bytes.length / pieces);
    const out: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += step) out.push(...decoder.push(bytes.subarray(at, at + step)));
    const copied = concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0);
    expect(out).toHaveLength(1);
    expect(out[0]?.equals(body)).toBe(true);
    // The header once, the body once: linear, however many pieces.
    expect(copied).toBeLessThanOrEqual(size + 64);
    expect(concat.mock.calls.length).toBe(2);
  });
});
