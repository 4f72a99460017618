import type { Readable } from "node:stream";
import { AbstractMessageReader, type DataCallback, Disposable, type Message } from "vscode-jsonrpc";
import { FrameDecoder, type FrameLimits, FrameViolation } from "./frame-decoder";
import { parseJsonRpcMessage } from "./jsonrpc-message";

/**
 * Reads JSON-RPC messages from a stream that comes out of a container, for vscode-jsonrpc's
 * `createMessageConnection` or on its own. vscode-jsonrpc's own StreamMessageReader buffers
 * whatever Content-Length a frame announces and re-scans its whole buffer for a header on every
 * chunk; this one holds at most one capped frame (FrameDecoder) and hands on only valid JSON-RPC.
 *
 * The first violation is reported once through `onError` (a FrameViolation), followed by
 * `onClose`; everything after it is ignored. Ending the process behind the stream is the owner's
 * part: the reader neither pauses nor destroys the stream, so nothing piles up in it meanwhile.
 */
export class BoundedMessageReader extends AbstractMessageReader {
  private stop: (() => void) | undefined;

  constructor(
    private readonly readable: Readable,
    private readonly limits: FrameLimits,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const decoder = new FrameDecoder(this.limits);
    let failed = false;
    const fail = (violation: FrameViolation) => {
      failed = true;
      this.fireError(violation);
      this.fireClose();
    };
    const onData = (chunk: Buffer) => {
      if (failed) return;
      try {
        for (const body of decoder.push(chunk)) {
          const message: Message = parseJsonRpcMessage(body);
          try {
            callback(message);
          } catch (error) {
            // A handler's bug is reported like vscode-jsonrpc's reader does; the stream is still sound.
            this.fireError(error);
          }
        }
      } catch (error) {
        if (error instanceof FrameViolation) fail(error);
        else this.fireError(error);
      }
    };
    const onEnd = () => {
      if (!failed) this.fireClose();
      failed = true;
    };
    const onError = (error: Error) => this.fireError(error);
    this.readable.on("data", onData);
    this.readable.once("end", onEnd);
    this.readable.once("close", onEnd);
    this.readable.on("error", onError);
    this.stop = () => {
      this.readable.off("data", onData);
      this.readable.off("end", onEnd);
      this.readable.off("close", onEnd);
      this.readable.off("error", onError);
    };
    return Disposable.create(() => this.dispose());
  }

  override dispose(): void {
    this.stop?.();
    this.stop = undefined;
    super.dispose();
  }
}
