import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { until } from "../testing/until";
import { AuthService } from "./auth-service";
import { LastSeen } from "./last-seen";

async function seenAt(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("users")
    .select("last_seen_at")
    .where("id", "=", FIRST_ADMIN_ID)
    .executeTakeFirst();
  return row?.last_seen_at ?? null;
}

describe.each(DIALECTS)("when a person was last seen, on %s", (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
  });
  afterEach(async () => {
    await database.close();
  });

  it("is the time of their last signed-in call, as the administration page shows it", async () => {
    const auth = new AuthService(database.db);
    expect(await seenAt(database.db)).toBeNull();
    const { cookie } = await auth.createSession(FIRST_ADMIN_ID);
    const before = Date.now();
    await auth.session(cookie);
    await until(async () => (await seenAt(database.db)) !== null, "the call is recorded");
    expect(Date.parse((await seenAt(database.db)) ?? "")).toBeGreaterThanOrEqual(before - 1000);
  });

  it("is written at most once a minute per person, however many calls they make", async () => {
    let now = Date.parse("2026-11-27T10:00:00Z");
    const seen = new LastSeen(database.db, () => now);
    await seen.touch(FIRST_ADMIN_ID);
    now += 30_000;
    expect(seen.touch(FIRST_ADMIN_ID)).toBeNull();
    now += 20_000;
    expect(seen.touch(FIRST_ADMIN_ID)).toBeNull();
    expect(Date.parse((await seenAt(database.db)) ?? "")).toBe(Date.parse("2026-11-27T10:00:00Z"));
    now += 15_000;
    await seen.touch(FIRST_ADMIN_ID);
    expect(Date.parse((await seenAt(database.db)) ?? "")).toBe(Date.parse("2026-11-27T10:01:05Z"));
  });
});
