import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type ClusterMembership, joinCluster } from "../cluster/join-cluster";
import type { Notice } from "../events/live-bus";
import type { Db } from "./database";
import { openTestDatabase, type TestDatabase } from "./testing/test-database";

let database: TestDatabase | undefined;
const members: ClusterMembership[] = [];
afterEach(async () => {
  for (const member of members.splice(0)) await member.leave();
  await database?.close();
});

async function twoInstances(): Promise<[ClusterMembership, ClusterMembership, Db]> {
  database = await openTestDatabase("postgres");
  const a = await joinCluster(database.settings, database.db, () => {});
  const b = await joinCluster(database.settings, await database.connect(), () => {});
  members.push(a, b);
  return [a, b, database.db];
}

function collect(member: ClusterMembership): Notice[] {
  const heard: Notice[] = [];
  member.bus.listen("workspace", (notice) => heard.push(notice));
  return heard;
}

describe("the live bus on PostgreSQL", () => {
  it("carries a notice to every instance, each knowing whether it was its own", async () => {
    const [a, b] = await twoInstances();
    const [onA, onB] = [collect(a), collect(b)];
    await a.bus.notify("workspace", "w1");
    await expect.poll(() => onB).toEqual([{ key: "w1", local: false }]);
    await expect.poll(() => onA).toEqual([{ key: "w1", local: true }]);
  });

  it("after losing its connection, reconnects and has every listener re-read", async () => {
    const [a, b, db] = await twoInstances();
    const onB = collect(b);
    // The server ends every LISTEN connection (a restart, a failover would).
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and query like 'LISTEN%'`.execute(db);
    await expect.poll(() => onB, { timeout: 10_000 }).toContainEqual({ key: null, local: false });
    await a.bus.notify("workspace", "after");
    await expect.poll(() => onB, { timeout: 10_000 }).toContainEqual({ key: "after", local: false });
  });
});
