export interface Delta {
  messageId: string;
  partId: string;
  delta: string;
}

/** How long streamed text may wait before it is stored and published. */
export const DELTA_INTERVAL_MS = 50;

/**
 * Batches streamed text: deltas for the same part are joined and handed on at most every
 * `intervalMs`, so a model streaming a token at a time costs a few rows a second, not hundreds.
 * `flush` hands on what is waiting at once (before any other event, to keep the order).
 */
export class DeltaCoalescer {
  private pending: Delta[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly emit: (deltas: Delta[]) => void,
    private readonly intervalMs = DELTA_INTERVAL_MS,
  ) {}

  push(messageId: string, partId: string, delta: string): void {
    if (!delta) return;
    const last = this.pending.at(-1);
    if (last && last.partId === partId) last.delta += delta;
    else this.pending.push({ messageId, partId, delta });
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const deltas = this.pending;
    this.pending = [];
    this.emit(deltas);
  }
}
