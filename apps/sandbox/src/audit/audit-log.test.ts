import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { addWorkspaceRow } from "../db/testing/workspace-rows";
import { type AuditActor, SYSTEM } from "./audit-entry";
import { AuditLog } from "./audit-log";
import { RetentionPurge } from "./retention-purge";

const ada: AuditActor = { kind: "user", id: "ada", name: "Ada" };
const bob: AuditActor = { kind: "user", id: "bob", name: "Bob" };

async function addWorkspace(db: Db, id: string, ownerId: string): Promise<void> {
  await db
    .insertInto("users")
    .values({ id: ownerId, display_name: ownerId, site_role: "member", created_at: new Date().toISOString() })
    .onConflict((c) => c.column("id").doNothing())
    .execute();
  await addWorkspaceRow(db, id, { ownerId });
}

describe.each(DIALECTS)("the audit trail on %s", (dialect) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function open(log: (line: string) => void = () => {}): Promise<{ db: Db; audit: AuditLog }> {
    database = await openTestDatabase(dialect);
    return { db: database.db, audit: new AuditLog(database.db, log) };
  }

  it("lists entries newest first a page at a time, and each filter narrows the list", async () => {
    const { audit } = await open();
    for (let i = 0; i < 5; i++) {
      audit.record({ actor: ada, action: "workspace.started", workspaceId: "w1", detail: { i } });
      audit.record({ actor: bob, action: "workspace.stopped", workspaceId: "w2", detail: { i } });
    }
    await audit.settled();
    const all = { all: true } as const;
    const first = await audit.list(all, {}, { limit: 4 });
    expect(first.entries.map((e) => e.id)).toEqual([...first.entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(first.nextCursor).toBe(first.entries.at(-1)?.id);
    const rest: number[] = [];
    for (let cursor = first.nextCursor; cursor !== null; ) {
      const page = await audit.list(all, {}, { limit: 4, cursor });
      rest.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    }
    expect(first.entries.length + rest.length).toBe(10);
    expect(new Set([...first.entries.map((e) => e.id), ...rest]).size).toBe(10);

    const ofBob = await audit.list(all, { actorId: "bob" }, { limit: 100 });
    expect(ofBob.entries).toHaveLength(5);
    expect(ofBob.entries.every((e) => e.actor.name === "Bob" && e.action === "workspace.stopped")).toBe(true);
    expect((await audit.list(all, { workspaceId: "w1" }, { limit: 100 })).entries).toHaveLength(5);
    expect((await audit.list(all, { action: "workspace.stopped" }, { limit: 100 })).entries).toHaveLength(5);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await audit.list(all, { since: future }, { limit: 100 })).entries).toHaveLength(0);
    expect((await audit.list(all, { until: future }, { limit: 100 })).entries).toHaveLength(10);
  });

  it("shows a user only the entries of the workspaces they own", async () => {
    const { db, audit } = await open();
    await addWorkspace(db, "ws-of-ada", "ada");
    await addWorkspace(db, "ws-of-bob", "bob");
    audit.record({ actor: bob, action: "terminal.opened", workspaceId: "ws-of-ada", target: "main" });
    audit.record({ actor: ada, action: "terminal.opened", workspaceId: "ws-of-bob", target: "main" });
    audit.record({ actor: ada, action: "auth.signed_in" });
    await audit.settled();
    const seen = await audit.list({ ownerId: "ada" }, {}, { limit: 100 });
    expect(seen.entries.map((e) => [e.workspaceId, e.actor.name])).toEqual([["ws-of-ada", "Bob"]]);
    expect((await audit.list({ all: true }, {}, { limit: 100 })).entries).toHaveLength(3);
  });

  it("keeps no secret, token, password or cookie of a detail, nor a secret-looking value", async () => {
    const { audit } = await open();
    const secret = randomBytes(32).toString("base64url");
    audit.record({
      actor: ada,
      action: "workspace.imported",
      workspaceId: "w1",
      target: `/s/${secret}`,
      client: { address: "127.0.0.1", userAgent: `curl Bearer ${secret}` },
      detail: {
        source: { type: "git", url: "https://example.com/r.git", token: "ghp_abcdef" },
        password: "hunter2hunter2",
        apiKey: "k",
        headers: { Cookie: "coder_session=x", Authorization: "Basic dXNlcjpwYXNz" },
        command: `curl -H 'Authorization: Bearer ghp_zzz' https://u:p@example.com/?t=${secret}`,
        huge: "x".repeat(100_000),
      },
    });
    await audit.settled();
    const [entry] = (await audit.list({ all: true }, {}, { limit: 1 })).entries;
    const text = JSON.stringify(entry);
    for (const leaked of [
      secret,
      "ghp_abcdef",
      "hunter2",
      "coder_session",
      "dXNlcjpwYXNz",
      "ghp_zzz",
      "u:p@",
    ]) {
      expect(text).not.toContain(leaked);
    }
    expect(entry?.detail).toMatchObject({ source: { type: "git", url: "https://example.com/r.git" } });
    expect(text.length).toBeLessThan(8192);
  });

  it("never fails the act it records: a write that cannot be stored is logged", async () => {
    const lines: string[] = [];
    const { audit } = await open((line) => lines.push(line));
    await database?.db.schema.dropTable("audit_events").execute();
    expect(() =>
      audit.record({ actor: SYSTEM, action: "workspace.stopped", workspaceId: "w1" }),
    ).not.toThrow();
    await audit.settled();
    expect(lines.join("\n")).toContain("audit workspace.stopped not recorded");
  });

  it("purges the entries older than the retention, at start and then every period", async () => {
    const { db, audit } = await open();
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await db
      .insertInto("audit_events")
      .values({
        at: old,
        actor_kind: "user",
        actor_id: FIRST_ADMIN_ID,
        actor_name: "Owner",
        action: "auth.signed_in",
      })
      .execute();
    audit.record({ actor: ada, action: "auth.signed_in" });
    await audit.settled();
    const purge = new RetentionPurge(audit, 365, () => {}, 50);
    purge.start();
    try {
      await expect
        .poll(async () => (await audit.list({ all: true }, {}, { limit: 10 })).entries.length)
        .toBe(1);
      // One that grows old while the service runs goes at the next period's purge.
      await db
        .insertInto("audit_events")
        .values({ at: old, actor_kind: "system", actor_name: "service", action: "workspace.stopped" })
        .execute();
      await expect
        .poll(async () => (await audit.list({ all: true }, {}, { limit: 10 })).entries.length)
        .toBe(1);
    } finally {
      await purge.stop();
    }
    const [kept] = (await audit.list({ all: true }, {}, { limit: 10 })).entries;
    expect(kept?.actor.name).toBe("Ada");
  });
});
