/** Appended to a stream that produced more than its share. */
export const TRUNCATED_MARK = "\n[output truncated]";

/** Keeps the first `limit` bytes of a stream and drops (but keeps draining) the rest. */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.bytes;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }

  text(): string {
    // A multi-byte character cut at the limit decodes to U+FFFD: drop it.
    const body = Buffer.concat(this.chunks).toString("utf8");
    return this.truncated ? body.replace(/\uFFFD$/, "") + TRUNCATED_MARK : body;
  }
}
