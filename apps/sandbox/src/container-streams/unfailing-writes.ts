import type { Writable } from "node:stream";

/**
 * Makes every `write` to a container's input report success to its caller; a write after the
 * stream ended goes nowhere. A failing stream still errors and closes, which is what drops its
 * connection and fails the requests in flight. Why: vscode-jsonrpc's `sendRequest` rethrows a
 * failed write inside an async Promise executor, so the failure becomes an unhandled rejection —
 * and a workspace that closes its daemon's input at the right moment would end the whole service.
 * Returns the same stream.
 */
export function unfailingWrites<T extends Writable>(stream: T): T {
  const write = stream.write.bind(stream) as (
    chunk: unknown,
    encoding: BufferEncoding,
    done: () => void,
  ) => boolean;
  stream.write = ((chunk: unknown, encoding?: BufferEncoding | (() => void), callback?: () => void) => {
    const done = typeof encoding === "function" ? encoding : callback;
    if (stream.writableEnded || stream.destroyed) {
      if (done) process.nextTick(done);
      return false;
    }
    return write(chunk, typeof encoding === "string" ? encoding : "utf8", () => done?.());
  }) as Writable["write"];
  return stream;
}
