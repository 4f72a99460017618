import { TERMINAL_ACK_EVERY_BYTES } from "@coder/protocol";

/**
 * Flow control, browser side: counts output bytes xterm has finished processing and says when
 * to ack them. The service pauses the container's output while too much is unacked, so a
 * `cat` of a huge file cannot flood the page.
 */
export class AckCounter {
  private pending = 0;

  constructor(private readonly every = TERMINAL_ACK_EVERY_BYTES) {}

  /** Records `bytes` as processed; returns the byte count to ack now, or null to wait for more. */
  processed(bytes: number): number | null {
    this.pending += bytes;
    if (this.pending < this.every) return null;
    const ack = this.pending;
    this.pending = 0;
    return ack;
  }
}
