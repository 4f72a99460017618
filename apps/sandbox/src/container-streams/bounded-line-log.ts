export interface LineLogLimits {
  /** Longer lines are cut there, with a marker. */
  maxLineBytes: number;
  /** Lines logged at once before the rate applies. */
  burst: number;
  /** Lines per second after the burst. */
  perSecond: number;
  /** Lines logged over the stream's whole life; after that it is silent. */
  total: number;
}

export const STDERR_LOG_LIMITS: LineLogLimits = {
  maxLineBytes: 2048,
  burst: 50,
  perSecond: 10,
  total: 2000,
};

const NEWLINE = 0x0a;

/**
 * Logs a container's stderr line by line within bounds: each line cut at `maxLineBytes`, lines
 * beyond the rate counted and reported as "N lines dropped", nothing after `total` lines. Holds at
 * most one cut line; looks at each byte once, so a 100 MB line without a newline costs a scan.
 */
export class BoundedLineLog {
  private line: Buffer[] = [];
  private lineBytes = 0;
  private cutBytes = 0;
  private tokens: number;
  private refilledAt: number;
  private logged = 0;
  private dropped = 0;
  private summary: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: (line: string) => void,
    private readonly limits: LineLogLimits = STDERR_LOG_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limits.burst;
    this.refilledAt = now();
  }

  write(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, at);
      const end = newline < 0 ? chunk.length : newline;
      this.append(chunk.subarray(at, end));
      if (newline < 0) return;
      this.finishLine();
      at = newline + 1;
    }
  }

  /** The stream ended: logs a last line without newline and what was dropped. */
  end(): void {
    if (this.lineBytes + this.cutBytes > 0) this.finishLine();
    this.reportDropped();
    clearTimeout(this.summary);
  }

  private append(part: Buffer): void {
    const room = this.limits.maxLineBytes - this.lineBytes;
    const kept = part.subarray(0, Math.max(0, room));
    if (kept.length > 0) {
      this.line.push(kept);
      this.lineBytes += kept.length;
    }
    this.cutBytes += part.length - kept.length;
  }

  private finishLine(): void {
    const parts = this.line;
    const length = this.lineBytes;
    const cut = this.cutBytes;
    this.line = [];
    this.lineBytes = 0;
    this.cutBytes = 0;
    if (this.logged >= this.limits.total) return;
    if (!this.take()) {
      this.dropped++;
      // Said with the next line let through, or a second later if the stream goes quiet.
      this.summary ??= setTimeout(() => {
        this.summary = undefined;
        this.reportDropped();
      }, 1000).unref();
      return;
    }
    const text = Buffer.concat(parts, length).toString("utf8").trimEnd();
    if (!text && !cut) {
      this.tokens++;
      return;
    }
    this.reportDropped();
    this.emit(cut ? `${text} … [${cut} more bytes cut]` : text);
  }

  private reportDropped(): void {
    if (this.dropped === 0) return;
    const dropped = this.dropped;
    this.dropped = 0;
    this.emit(`… (${dropped} lines dropped)`);
  }

  private emit(text: string): void {
    if (this.logged >= this.limits.total) return;
    this.logged++;
    this.log(text);
    if (this.logged === this.limits.total) this.log("… (further output not logged)");
  }

  /** Token bucket: `burst` lines at once, then `perSecond`. */
  private take(): boolean {
    const now = this.now();
    this.tokens = Math.min(
      this.limits.burst,
      this.tokens + ((now - this.refilledAt) / 1000) * this.limits.perSecond,
    );
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}
