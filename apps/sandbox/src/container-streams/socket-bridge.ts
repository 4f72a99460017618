import type { Readable } from "node:stream";
import type { WebSocket } from "ws";

/** Stop reading the container's output while this much sent to the socket is not yet written out. */
const SEND_HIGH_WATER_BYTES = 1024 * 1024;
const SEND_LOW_WATER_BYTES = SEND_HIGH_WATER_BYTES / 4;

export interface SocketBridgeOptions<P, T> {
  /** The most the browser may send before the process runs; more calls `onOverflow`. */
  maxEarlyBytes: number;
  /** Hands one thing the browser sent to the running process. */
  deliver(proc: P, item: T): void;
  /** Ends the process: the socket closed. */
  end(proc: P): void;
  /** The browser sent more than `maxEarlyBytes` before the process ran (the bridge dropped it). */
  onOverflow(): void;
}

/**
 * What a browser socket bridged to a process in the container (a terminal, a language server)
 * needs whatever it carries. The process starts after the socket opened: what the browser sends
 * meanwhile waits in a bounded buffer and is delivered in order once it runs. Closing the socket
 * ends the process, also one that was still starting. The process's output is paused while the
 * socket cannot keep up (`hold` adds other reasons, such as the terminal's acks), so a flood
 * waits in the container, not in the service's memory.
 */
export class SocketBridge<P, T> {
  private proc: P | undefined;
  private source: Readable | undefined;
  private readonly early: T[] = [];
  private earlyBytes = 0;
  private socketClosed = false;
  private unwritten = 0;
  private readonly holds = new Set<string>();

  constructor(
    private readonly ws: WebSocket,
    private readonly options: SocketBridgeOptions<P, T>,
  ) {
    ws.on("close", () => {
      this.socketClosed = true;
      this.early.length = 0;
      if (this.proc !== undefined) options.end(this.proc);
    });
  }

  /** Passes what the browser sent to the process, or keeps it (bounded) until the process runs. */
  fromBrowser(item: T, bytes: number): void {
    if (this.proc !== undefined) {
      this.options.deliver(this.proc, item);
      return;
    }
    this.earlyBytes += bytes;
    if (this.earlyBytes > this.options.maxEarlyBytes) {
      this.early.length = 0;
      this.options.onOverflow();
      return;
    }
    this.early.push(item);
  }

  /**
   * The process runs and `source` is its output: what waited is delivered. False when the socket
   * closed meanwhile; the process is then ended.
   */
  started(proc: P, source: Readable): boolean {
    if (this.socketClosed) {
      this.options.end(proc);
      return false;
    }
    this.proc = proc;
    this.source = source;
    if (this.holds.size > 0) source.pause();
    for (const item of this.early.splice(0)) this.options.deliver(proc, item);
    return true;
  }

  /** Sends output to the browser; the output pauses while too much of it is not written out yet. */
  toBrowser(data: Buffer | string): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.length;
    this.unwritten += bytes;
    this.ws.send(data, { binary: typeof data !== "string" }, () => {
      this.unwritten -= bytes;
      if (this.unwritten <= SEND_LOW_WATER_BYTES) this.release("socket");
    });
    if (this.unwritten > SEND_HIGH_WATER_BYTES) this.hold("socket");
  }

  /** Pauses the output for `reason` until `release(reason)`. */
  hold(reason: string): void {
    this.holds.add(reason);
    this.source?.pause();
  }

  release(reason: string): void {
    if (!this.holds.delete(reason)) return;
    if (this.holds.size === 0) this.source?.resume();
  }

  /** Closes the socket (once) with `code` and a reason. */
  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) {
      this.ws.close(code, reason);
    }
  }
}
