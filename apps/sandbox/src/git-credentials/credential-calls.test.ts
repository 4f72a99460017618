import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { egressAllowSchema } from "../net/egress-allow-list";
import { ASKS_PER_MINUTE, CredentialCalls } from "./credential-calls";
import { GitCredentials } from "./git-credentials";

const TOKEN = "ghp_thisIsTheSecretToken0123456789";

async function addPeople(db: Db): Promise<void> {
  const now = new Date().toISOString();
  for (const id of ["alice", "bob"]) {
    await db
      .insertInto("users")
      .values({ id, display_name: id, site_role: "member", created_at: now })
      .execute();
  }
  for (const [id, owner] of [
    ["w-alice", "alice"],
    ["w-other", "alice"],
  ] as const) {
    await db
      .insertInto("workspaces")
      .values({
        id,
        name: id,
        owner_id: owner,
        egress: 0,
        image: "test",
        desired_state: "running",
        created_at: now,
      })
      .execute();
  }
}

describe.each(DIALECTS)("git credentials on %s", (dialect) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function open() {
    database = await openTestDatabase(dialect);
    await addPeople(database.db);
    const credentials = new GitCredentials(database.db, randomBytes(32));
    const logged: string[] = [];
    const calls = new CredentialCalls(credentials, egressAllowSchema.parse("10.1.2.3/32:8080"), (line) =>
      logged.push(line),
    );
    return { db: database.db, credentials, calls, logged };
  }

  it("keeps the token sealed in the database and lists a person's hosts without it", async () => {
    const { db, credentials } = await open();
    const stored = await credentials.set("alice", { host: "Example.test", token: TOKEN });
    expect(stored).toEqual({ host: "example.test", username: "x-access-token", created: expect.any(String) });
    expect(JSON.stringify(await credentials.list("alice"))).not.toContain(TOKEN);
    expect(await credentials.list("bob")).toEqual([]);
    const rows = await db.selectFrom("git_credentials").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(JSON.stringify(rows)).not.toContain(Buffer.from(TOKEN).toString("base64"));
  });

  it("lists each token with the workspaces its owner bound it to, while they still own them", async () => {
    const { db, credentials } = await open();
    await credentials.set("alice", { host: "example.test", token: TOKEN });
    await credentials.set("alice", { host: "other.test", token: TOKEN });
    await credentials.bind("w-alice", "alice", "example.test");
    await credentials.bind("w-other", "alice", "example.test");
    const boundTo = async () =>
      Object.fromEntries((await credentials.list("alice")).map((c) => [c.host, c.boundTo]));
    expect(await boundTo()).toEqual({
      "example.test": [
        { id: "w-alice", name: "w-alice" },
        { id: "w-other", name: "w-other" },
      ],
      "other.test": [],
    });
    await db.updateTable("workspaces").set({ owner_id: "bob" }).where("id", "=", "w-other").execute();
    expect((await boundTo())["example.test"]).toEqual([{ id: "w-alice", name: "w-alice" }]);
  });

  it("gives the acting person's token to git only during their call, from that workspace, for exactly that host", async () => {
    const { credentials, calls, logged } = await open();
    await credentials.set("alice", { host: "example.test", username: "alice", token: TOKEN });
    const call = calls.open("w-alice", "alice");
    const ask = (
      workspace: string,
      host: string,
      requestId: string | null = call.requestId,
      protocol = "https",
    ) => calls.answer(workspace, { requestId, protocol, host });

    expect(await ask("w-alice", "example.test")).toEqual({ username: "alice", password: TOKEN });
    expect(await ask("w-alice", "example.test.attacker.test")).toBeNull();
    expect(await ask("w-alice", "attacker.test/example.test")).toBeNull();
    expect(await ask("w-alice", "attacker.test")).toBeNull();
    expect(await ask("w-alice", "example.test", call.requestId, "http")).toBeNull();
    expect(await ask("w-other", "example.test")).toBeNull();
    expect(await ask("w-alice", "example.test", "someone-elses-id")).toBeNull();
    expect(await ask("w-alice", "example.test", null)).toBeNull();
    call.close();
    expect(await ask("w-alice", "example.test")).toBeNull();
    expect(logged.join("\n")).not.toContain(TOKEN);
  });

  it("gives bob's call nothing of alice's, and plain http only to an address the operator opened", async () => {
    const { credentials, calls } = await open();
    await credentials.set("alice", { host: "10.1.2.3:8080", token: TOKEN });
    await credentials.set("alice", { host: "10.9.9.9:8080", token: TOKEN });
    const bobs = calls.open("w-alice", "bob");
    expect(
      await calls.answer("w-alice", { requestId: bobs.requestId, protocol: "https", host: "10.1.2.3:8080" }),
    ).toBeNull();
    const alices = calls.open("w-alice", "alice");
    const http = (host: string) =>
      calls.answer("w-alice", { requestId: alices.requestId, protocol: "http", host });
    expect(await http("10.1.2.3:8080")).toEqual({ username: "x-access-token", password: TOKEN });
    expect(await http("10.9.9.9:8080")).toBeNull();
  });

  it("answers a workspace that asks in a loop nothing past its share a minute, and logs that once", async () => {
    const { credentials, calls, logged } = await open();
    await credentials.set("alice", { host: "example.test", token: TOKEN });
    await credentials.bind("w-alice", "alice", "example.test");
    const answer = calls.answererFor("w-alice");
    const ask = () => answer({ requestId: null, protocol: "https", host: "example.test" });
    for (let i = 0; i < ASKS_PER_MINUTE; i++) expect(await ask()).not.toBeNull();
    for (let i = 0; i < 50; i++) expect(await ask()).toBeNull();
    expect(logged.filter((line) => line.includes("asks too often"))).toHaveLength(1);
    // Another workspace's daemon has its own share.
    expect(
      await calls.answererFor("w-other")({ requestId: null, protocol: "https", host: "x.test" }),
    ).toBeNull();
  });

  it("gives git in a terminal the owner's token only for a host the owner bound, while they own the workspace", async () => {
    const { db, credentials, calls } = await open();
    await credentials.set("alice", { host: "example.test", token: TOKEN });
    await credentials.set("bob", { host: "example.test", token: "bobs-token" });
    const terminal = (workspace: string, host = "example.test") =>
      calls.answer(workspace, { requestId: null, protocol: "https", host });
    expect(await terminal("w-alice")).toBeNull();
    await expect(credentials.bind("w-alice", "bob", "example.test")).rejects.toThrow(/owner/);
    await expect(credentials.bind("w-alice", "alice", "other.test")).rejects.toThrow(/store a token/);
    await credentials.bind("w-alice", "alice", "example.test");
    expect(await credentials.bindings("w-alice")).toEqual(["example.test"]);
    expect(await terminal("w-alice")).toEqual({ username: "x-access-token", password: TOKEN });
    expect(await terminal("w-alice", "example.test.attacker.test")).toBeNull();
    expect(await terminal("w-other")).toBeNull();
    // Given to bob, the workspace hands out neither alice's token nor bob's.
    await db.updateTable("workspaces").set({ owner_id: "bob" }).where("id", "=", "w-alice").execute();
    expect(await terminal("w-alice")).toBeNull();
    await db.updateTable("workspaces").set({ owner_id: "alice" }).where("id", "=", "w-alice").execute();
    await credentials.unbind("w-alice", "example.test");
    expect(await terminal("w-alice")).toBeNull();
    await credentials.bind("w-alice", "alice", "example.test");
    await credentials.delete("alice", "example.test");
    expect(await terminal("w-alice")).toBeNull();
    expect(await credentials.bindings("w-alice")).toEqual([]);
  });
});
