import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { demuxWithBackpressure } from "./demux";

function frame(stream: 1 | 2, payload: string): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(Buffer.byteLength(payload), 4);
  return Buffer.concat([header, Buffer.from(payload)]);
}

describe("splitting the engine's attach stream", () => {
  it("sends each frame to its stream, also frames cut across chunks", async () => {
    const bytes = Buffer.concat([frame(1, "out one "), frame(2, "err"), frame(1, "out two")]);
    const source = Readable.from([bytes.subarray(0, 5), bytes.subarray(5, 20), bytes.subarray(20)]);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    demuxWithBackpressure(source, stdout, stderr);
    await new Promise((resolve) => source.once("end", resolve));
    expect(stdout.read()?.toString()).toBe("out one out two");
    expect(stderr.read()?.toString()).toBe("err");
  });

  it("pauses the engine's stream while a reader has not taken its output, and resumes when it does", async () => {
    const source = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 1024 });
    demuxWithBackpressure(source, stdout, new PassThrough());
    source.write(frame(1, "x".repeat(4096)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    stdout.resume();
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(false);
  });
});
