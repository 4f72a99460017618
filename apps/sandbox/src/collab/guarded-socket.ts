import { EventEmitter } from "node:events";
import type { WebSocket } from "ws";
import type { MessageGuard } from "./message-guard";
import type { OutgoingBatch, OutgoingBatches } from "./outgoing-batch";

/** Policy violation: the frame broke the collaboration protocol's rules. */
const POLICY_VIOLATION = 1008;

/**
 * What Hocuspocus gets instead of the browser's WebSocket: the same few members it uses (events
 * `message`, `close`, `pong`; `send`, `ping`, `close`, `readyState`), but every incoming frame
 * passes the guard first, so Hocuspocus only ever sees frames the service allows, rewritten where
 * the guard says so, and the guard sees what Hocuspocus answers (a document it refused). A
 * violation closes the real socket (and so every document on it). With `batches`, document
 * updates and awareness changes leave merged once per turn of the event loop (OutgoingBatches).
 */
export class GuardedSocket extends EventEmitter {
  binaryType = "nodebuffer";
  private readonly outgoing: OutgoingBatch | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly guard: MessageGuard,
    log: (line: string) => void,
    batches?: OutgoingBatches,
  ) {
    super();
    this.outgoing = batches?.batch((data, sent) => ws.send(data, sent));
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      const verdict = isBinary ? guard.check(data) : ({ kind: "close", why: "a text frame" } as const);
      if (verdict.kind === "forward") this.emit("message", verdict.data);
      else if (verdict.kind === "close") {
        log(`collab: closing a socket that sent ${verdict.why}`);
        ws.removeAllListeners("message");
        ws.close(POLICY_VIOLATION, "collaboration protocol violation");
      }
    });
    ws.on("pong", () => this.emit("pong"));
    ws.once("close", (code: number, reason: Buffer) => this.emit("close", code, reason));
    // An oversized frame (ws closes with 1009) or a broken connection ends this socket only.
    ws.on("error", (err) => log(`collab socket: ${err.message}`));
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  send(data: Uint8Array, callback?: (error?: Error) => void): void {
    this.guard.sent(data);
    if (this.outgoing) this.outgoing.send(data, callback);
    else this.ws.send(data, callback);
  }

  ping(): void {
    this.ws.ping();
  }

  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }
}
