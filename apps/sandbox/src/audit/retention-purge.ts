import type { AuditLog } from "./audit-log";

const DAY_MS = 86_400_000;

/**
 * Keeps the audit trail to `CODER_AUDIT_RETENTION_DAYS`: purges at start and once a day after.
 * Every instance on a database purges; deleting what another already deleted is harmless.
 */
export class RetentionPurge {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly audit: AuditLog,
    private readonly days: number,
    private readonly log: (line: string) => void,
    private readonly everyMs = DAY_MS,
  ) {}

  start(): void {
    this.purge();
    this.timer = setInterval(() => this.purge(), this.everyMs);
    this.timer.unref();
  }

  private purge(): void {
    this.running = this.running
      .then(() => this.audit.purgeOlderThan(this.days))
      .then(
        (count) => {
          if (count > 0) this.log(`audit: purged ${count} entries older than ${this.days} days`);
        },
        (err: Error) => this.log(`audit: purge failed: ${err.message}`),
      );
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
