import type { AuthService } from "./auth-service";

/** How soon a session ended elsewhere (`npm run token`, another instance) or expired loses its sockets. */
const SWEEP_MS = 500;
const PURGE_MS = 10 * 60_000;

/**
 * The service's session housekeeping while it runs: every `sweepMs` it closes the connections of
 * sessions that are gone or expired (one query over the sessions holding connections); every
 * `purgeMs` it deletes expired sessions and login tickets. Sweeps never overlap.
 */
export class SessionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private lastPurge = Date.now();
  private failing = false;

  constructor(
    private readonly auth: AuthService,
    private readonly log: (line: string) => void,
    private readonly sweepMs = SWEEP_MS,
    private readonly purgeMs = PURGE_MS,
  ) {}

  start(): void {
    this.schedule();
  }

  /** Stops the timer and waits for a sweep in progress (the database closes next). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep().finally(() => this.schedule());
    }, this.sweepMs);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    try {
      if (Date.now() - this.lastPurge >= this.purgeMs) {
        this.lastPurge = Date.now();
        await this.auth.purgeExpired();
      }
      await this.auth.endLostSessions();
      this.failing = false;
    } catch (err) {
      // Logged once per outage, not every half second.
      if (!this.failing) this.log(`session sweep: ${(err as Error).message}`);
      this.failing = true;
    }
  }
}
