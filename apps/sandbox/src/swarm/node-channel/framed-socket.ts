import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";

/** What a frame carries. `data`/`stderr` are bytes, `end` closes one of them, `control` is JSON. */
export const FrameKind = { data: 1, stderr: 2, end: 3, control: 4 } as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

const HEADER_BYTES = 5;
/** One frame's payload at most: a request or control message, or a slice of a stream. */
export const MAX_FRAME_BYTES = 256 * 1024;
/** Streams are cut into slices of this size, so one stream cannot hold up the others for long. */
const SLICE_BYTES = 64 * 1024;

/**
 * A node channel's connection: frames of `[kind u8][length u32][payload]` both ways, bounded, with
 * backpressure both ways. Sending follows the socket's `write`/`drain`; receiving pauses the socket
 * while any of the local streams it feeds is full (`deliver`, `push`), and resumes once all drained.
 */
export class FramedSocket {
  private pending: Buffer = Buffer.alloc(0);
  private readonly blocked = new Set<object>();

  constructor(
    readonly socket: Socket,
    onFrame: (kind: number, payload: Buffer) => void,
  ) {
    socket.on("data", (chunk: Buffer) => {
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
      try {
        while (this.pending.length >= HEADER_BYTES && !socket.destroyed) {
          const length = this.pending.readUInt32BE(1);
          if (length > MAX_FRAME_BYTES) throw new RangeError(`a frame of ${length} bytes is too large`);
          if (this.pending.length < HEADER_BYTES + length) break;
          const kind = this.pending[0] as number;
          const payload = this.pending.subarray(HEADER_BYTES, HEADER_BYTES + length);
          this.pending = this.pending.subarray(HEADER_BYTES + length);
          onFrame(kind, payload);
        }
      } catch {
        // A peer that breaks the framing is dropped; the connection's owner sees it close.
        socket.destroy();
      }
    });
  }

  /** Sends one frame; false when the socket's buffer is full (wait for `drained`). */
  send(kind: FrameKind, payload: Buffer | string = Buffer.alloc(0)): boolean {
    if (this.socket.destroyed) return false;
    const body = typeof payload === "string" ? Buffer.from(payload) : payload;
    const header = Buffer.alloc(HEADER_BYTES);
    header[0] = kind;
    header.writeUInt32BE(body.length, 1);
    return this.socket.write(Buffer.concat([header, body]));
  }

  sendControl(message: object): boolean {
    return this.send(FrameKind.control, JSON.stringify(message));
  }

  drained(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed || !this.socket.writableNeedDrain) return resolve();
      const done = () => {
        this.socket.off("drain", done);
        this.socket.off("close", done);
        resolve();
      };
      this.socket.on("drain", done);
      this.socket.on("close", done);
    });
  }

  /**
   * Sends everything `source` yields as `kind` frames, then an `end` frame for that stream: holds the
   * source back while the socket is full. Resolves once the source ended (or the socket closed).
   */
  async pump(source: Readable, kind: typeof FrameKind.data | typeof FrameKind.stderr): Promise<void> {
    try {
      for await (const chunk of source) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
          if (!this.send(kind, bytes.subarray(at, at + SLICE_BYTES))) await this.drained();
        }
        if (this.socket.destroyed) return;
      }
      this.send(FrameKind.end, Buffer.from([kind]));
    } catch {
      // The source failed (its process went away): the stream just ends here.
      this.send(FrameKind.end, Buffer.from([kind]));
    }
  }

  /** Writes a received slice into a local stream; reading stops while it is full. */
  deliver(target: Writable, payload: Buffer): void {
    if (target.destroyed || target.writableEnded) return;
    if (!target.write(payload)) {
      this.block(target);
      const release = () => {
        target.off("drain", release);
        target.off("close", release);
        this.unblock(target);
      };
      target.on("drain", release);
      target.on("close", release);
    }
  }

  /** Pushes a received slice into a local readable; reading stops until it is read (`unblock`). */
  push(target: Readable, payload: Buffer): void {
    if (!target.push(payload)) this.block(target);
  }

  private block(key: object): void {
    this.blocked.add(key);
    this.socket.pause();
  }

  unblock(key: object): void {
    if (!this.blocked.delete(key)) return;
    if (this.blocked.size === 0 && !this.socket.destroyed) this.socket.resume();
  }

  close(): void {
    this.socket.end();
  }
}
