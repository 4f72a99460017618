import { performance } from "node:perf_hooks";

/** How often the loop is asked to run a timer: the lag is what it ran late by. */
const SAMPLE_EVERY_MS = 100;
/** "Recently": the lag the service's admission and its log look at. */
export const RECENT_WINDOW_MS = 2000;

interface Sample {
  at: number;
  lateMs: number;
}

/**
 * How far behind the service's own event loop runs, measured by a timer that asks to run every
 * 100 ms and notes how late it ran. A loop starved by work (a flood of frames, a long synchronous
 * task) runs its timers late, whatever the work was; the lateness of the stall still under way
 * counts too, so a reading taken right after a stall sees all of it. Made once by the service
 * (service.ts) and handed to who needs it.
 */
export class EventLoopLag {
  private totalMs = 0;
  private expectedAt: number;
  private readonly samples: Sample[] = [];
  private timer: NodeJS.Timeout;

  constructor() {
    this.expectedAt = performance.now() + SAMPLE_EVERY_MS;
    this.timer = this.arm();
  }

  /**
   * Milliseconds the loop has run late since this measure began, the current stall included:
   * two readings' difference is the loop's lag between them.
   */
  total(): number {
    return this.totalMs + this.pendingMs();
  }

  /**
   * Milliseconds the loop ran late over the last RECENT_WINDOW_MS (a loop late half the time: half
   * of it), each late turn counted up to `eachAtMostMs`.
   */
  recent(eachAtMostMs = Number.POSITIVE_INFINITY): number {
    const since = performance.now() - RECENT_WINDOW_MS;
    let sum = Math.min(this.pendingMs(), eachAtMostMs);
    for (const sample of this.samples) if (sample.at >= since) sum += Math.min(sample.lateMs, eachAtMostMs);
    return sum;
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** The lateness of a sample that is due and has not run yet: the loop is busy right now. */
  private pendingMs(): number {
    return Math.max(0, performance.now() - this.expectedAt);
  }

  private arm(): NodeJS.Timeout {
    // Unref'd: measuring never keeps the process alive.
    return setTimeout(() => this.sample(), SAMPLE_EVERY_MS).unref();
  }

  private sample(): void {
    const now = performance.now();
    const lateMs = Math.max(0, now - this.expectedAt);
    this.totalMs += lateMs;
    this.samples.push({ at: now, lateMs });
    while (this.samples.length > 0 && (this.samples[0]?.at ?? now) < now - RECENT_WINDOW_MS)
      this.samples.shift();
    this.expectedAt = now + SAMPLE_EVERY_MS;
    this.timer = this.arm();
  }
}
