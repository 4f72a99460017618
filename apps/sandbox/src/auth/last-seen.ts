import type { Db } from "../db/database";

/** How stale `users.last_seen_at` may be: one write per person per minute, however busy they are. */
const WRITE_EVERY_MS = 60_000;

/**
 * When each person last used the service (the administration page's "seen …"): written from the
 * session check, at most once a minute per person on this instance, without holding up the call.
 */
export class LastSeen {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** The write when one is due (callers need not wait for it), null when the last one is recent. */
  touch(userId: string): Promise<void> | null {
    const now = this.now();
    if (now - (this.written.get(userId) ?? 0) < WRITE_EVERY_MS) return null;
    this.written.set(userId, now);
    // A lost write only leaves the "seen" time a minute older: the call it came with goes on.
    return this.db
      .updateTable("users")
      .set({ last_seen_at: new Date(now).toISOString() })
      .where("id", "=", userId)
      .execute()
      .then(
        () => {},
        () => {
          this.written.delete(userId);
        },
      );
  }
}
