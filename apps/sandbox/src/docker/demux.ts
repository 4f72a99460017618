import type { Readable, Writable } from "node:stream";

/** A frame header of the engine's multiplexed stream: stream type (1 stdout, 2 stderr), 3 zero bytes, length. */
const HEADER = 8;
const STDERR = 2;

/**
 * Splits the engine's multiplexed attach stream into stdout and stderr like dockerode's
 * `demuxStream`, but with backpressure: while a reader has not taken what it was given, the
 * engine's stream is paused, so a slow reader (a browser downloading an archive) holds the
 * container back instead of growing the service's memory. Both outputs must be read.
 */
export function demuxWithBackpressure(source: Readable, stdout: Writable, stderr: Writable): void {
  let pending: Buffer = Buffer.alloc(0);
  const full = new Set<Writable>();
  source.on("data", (chunk: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= HEADER) {
      const size = pending.readUInt32BE(4);
      if (pending.length < HEADER + size) break;
      const target = pending[0] === STDERR ? stderr : stdout;
      const accepted = target.write(pending.subarray(HEADER, HEADER + size));
      pending = pending.subarray(HEADER + size);
      if (!accepted && !full.has(target)) {
        full.add(target);
        source.pause();
        target.once("drain", () => {
          full.delete(target);
          if (full.size === 0) source.resume();
        });
      }
    }
  });
}
