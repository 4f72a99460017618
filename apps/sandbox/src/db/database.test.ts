import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase } from "./testing/test-database";

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.close();
});

describe.each(DIALECTS)("the database on %s", (dialect) => {
  it("reads timestamps, flags, counters and JSON back exactly as the service wrote them", async () => {
    database = await openTestDatabase(dialect);
    const { db } = database;
    const createdAt = "2026-11-23T10:11:12.345Z";
    await db
      .insertInto("workspaces")
      .values({
        id: "w1",
        name: "one",
        egress: 1,
        image: "i",
        created_at: createdAt,
        desired_state: "running",
      })
      .execute();
    await db
      .insertInto("sessions")
      .values({
        id: "s1",
        workspace_id: "w1",
        parent_id: null,
        title: "t",
        agent: "build",
        model: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    const data = JSON.stringify({ b: 1, a: "x\u0000y", nested: [1, 2] });
    const { id } = await db
      .insertInto("session_events")
      .values({ session_id: "s1", data, created_at: createdAt })
      .returning("id")
      .executeTakeFirstOrThrow();

    expect(await db.selectFrom("workspaces").select(["egress", "created_at"]).executeTakeFirst()).toEqual({
      egress: 1,
      created_at: createdAt,
    });
    expect(await db.selectFrom("session_events").selectAll().executeTakeFirst()).toEqual({
      id,
      session_id: "s1",
      data,
      created_at: createdAt,
    });
    expect(typeof id).toBe("number");
    const later = await db
      .selectFrom("workspaces")
      .select("id")
      .where("created_at", ">", "2026-11-23T10:11:12.344Z");
    expect(await later.execute()).toEqual([{ id: "w1" }]);
  });

  it.runIf(dialect === "postgres")("stores them in PostgreSQL's own types", async () => {
    database = await openTestDatabase(dialect);
    const columns = await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_identity: string;
    }>`
      select table_name, column_name, data_type, is_identity from information_schema.columns
      where table_schema = 'public' and (table_name, column_name) in
        (('workspaces', 'egress'), ('workspaces', 'created_at'), ('session_events', 'id'), ('session_events', 'data'))
      order by table_name, column_name`.execute(database.db);
    expect(columns.rows).toEqual([
      { table_name: "session_events", column_name: "data", data_type: "json", is_identity: "NO" },
      { table_name: "session_events", column_name: "id", data_type: "bigint", is_identity: "YES" },
      {
        table_name: "workspaces",
        column_name: "created_at",
        data_type: "timestamp with time zone",
        is_identity: "NO",
      },
      { table_name: "workspaces", column_name: "egress", data_type: "boolean", is_identity: "NO" },
    ]);
  });
});
