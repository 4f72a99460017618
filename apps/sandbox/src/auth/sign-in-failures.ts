import { createHash } from "node:crypto";
import type { Db } from "../db/database";

/** A failure this long ago no longer counts against its account (as in http/failure-backoff.ts). */
export const FORGET_FAILURES_MS = 15 * 60_000;

/**
 * Wrong passwords tried against each account, in the database, so every instance counts the same
 * failures: a guesser who spreads tries over instances is held back as if all went to one. Keys
 * are hashed: the addresses people mistype are not kept.
 */
export class SignInFailures {
  constructor(private readonly db: Db) {}

  /** Counts one more failure of `key` at `now`; answers how many count against it (the first after a pause is 1). */
  async fail(key: string, now: number): Promise<number> {
    const at = new Date(now).toISOString();
    const stale = new Date(now - FORGET_FAILURES_MS).toISOString();
    const row = await this.db
      .insertInto("sign_in_failures")
      .values({ key: hashKey(key), failures: 1, last_failure_at: at })
      .onConflict((conflict) =>
        conflict.column("key").doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when("sign_in_failures.last_failure_at", "<", stale)
            .then(1)
            .else(eb("sign_in_failures.failures", "+", 1))
            .end(),
          last_failure_at: at,
        })),
      )
      .returning("failures")
      .executeTakeFirstOrThrow();
    return Number(row.failures);
  }

  /** Forgets failures too old to count. */
  async purge(now = Date.now()): Promise<void> {
    const stale = new Date(now - FORGET_FAILURES_MS).toISOString();
    await this.db.deleteFrom("sign_in_failures").where("last_failure_at", "<", stale).execute();
  }
}

function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}
