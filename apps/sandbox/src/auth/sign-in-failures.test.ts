import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { type BackoffClock, FailureBackoff } from "../http/failure-backoff";
import { FORGET_FAILURES_MS, SignInFailures } from "./sign-in-failures";

/** A clock whose sleeps end at once and are written down. */
function recordingClock() {
  const state = { now: 1_000_000, slept: [] as number[] };
  const clock: BackoffClock = {
    now: () => state.now,
    sleep: async (ms) => {
      state.slept.push(ms);
    },
  };
  return { clock, state };
}

const wrongPassword = async () => null;

describe.each(DIALECTS)("wrong passwords to one account, counted across instances on %s", (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
  });
  afterEach(async () => {
    await database.close();
  });

  it("hold back a guess on a second instance as long as if every earlier guess had gone to it", async () => {
    const { clock, state } = recordingClock();
    // Two instances: each its own backoff, one database.
    const onA = new FailureBackoff(clock, undefined, new SignInFailures(database.db));
    const onB = new FailureBackoff(clock, undefined, new SignInFailures(database.db));
    for (let i = 0; i < 3; i++) await onA.run("mia@example.com", wrongPassword);
    await onB.run("mia@example.com", wrongPassword);
    await onA.run("mia@example.com", wrongPassword);
    expect(state.slept).toEqual([250, 500, 1000, 2000, 4000]);
    // Another account starts from the first delay.
    await onB.run("max@example.com", wrongPassword);
    expect(state.slept.at(-1)).toBe(250);
  });

  it("forget an account's failures a quarter of an hour after its last, and keep no e-mail address", async () => {
    const { clock, state } = recordingClock();
    const failures = new SignInFailures(database.db);
    const backoff = new FailureBackoff(clock, undefined, failures);
    for (let i = 0; i < 3; i++) await backoff.run("mia@example.com", wrongPassword);
    const rows = await database.db.selectFrom("sign_in_failures").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain("mia");
    state.now += FORGET_FAILURES_MS + 1;
    await backoff.run("mia@example.com", wrongPassword);
    expect(state.slept.at(-1)).toBe(250);
    await failures.purge(state.now + FORGET_FAILURES_MS + 1);
    expect(await database.db.selectFrom("sign_in_failures").selectAll().execute()).toEqual([]);
  });
});
