import { AccessCloseCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { addWorkspaceRow } from "../db/testing/workspace-rows";
import { Accounts } from "./accounts";
import { AuthService } from "./auth-service";
import type { Principal } from "./principal";

type User = Extract<Principal, { kind: "user" }>;

describe.each(DIALECTS)("roles on workspaces and named shares on %s", (dialect) => {
  let database: TestDatabase;
  let auth: AuthService;
  let ada: User;
  let bob: User;
  let admin: User;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    auth = new AuthService(database.db);
    const accounts = new Accounts(database.db);
    const as = (id: string, name: string, siteRole: User["siteRole"]): User => ({
      kind: "user",
      sessionId: `session-${id}`,
      userId: id,
      name,
      siteRole,
    });
    ada = as(
      (await accounts.create({ email: "ada@example.com", displayName: "Ada", siteRole: "member" })).id,
      "Ada",
      "member",
    );
    bob = as(
      (await accounts.create({ email: "bob@example.com", displayName: "Bob", siteRole: "member" })).id,
      "Bob",
      "member",
    );
    admin = as(FIRST_ADMIN_ID, "Owner", "admin");
    await addWorkspaceRow(database.db, "adaswork0001", { ownerId: ada.userId });
    await addWorkspaceRow(database.db, "bobswork0001", { ownerId: bob.userId });
  });
  afterEach(async () => {
    await database.close();
  });

  it("makes the owner of workspace A nobody on workspace B", async () => {
    expect(await auth.roles.of(ada, "adaswork0001")).toBe("owner");
    expect(await auth.roles.of(ada, "bobswork0001")).toBeNull();
    expect(await auth.roles.of(bob, "adaswork0001")).toBeNull();
  });

  it("gives a named person the role the owner shared with them, and takes it back on revoke", async () => {
    await auth.members.share("bobswork0001", { email: "ADA@example.com " }, "viewer");
    expect(await auth.roles.of(ada, "bobswork0001")).toBe("viewer");
    await auth.members.share("bobswork0001", { userId: ada.userId }, "editor");
    expect(await auth.roles.of(ada, "bobswork0001")).toBe("editor");
    expect((await auth.members.people("bobswork0001")).map((p) => [p.name, p.email, p.role])).toEqual([
      ["Ada", "ada@example.com", "editor"],
    ]);
    expect(await auth.members.revoke("bobswork0001", ada.userId)).toMatchObject({ role: expect.any(String) });
    expect(await auth.roles.of(ada, "bobswork0001")).toBeNull();
  });

  it("refuses to share with an address that has no account, or with the owner themself", async () => {
    await expect(auth.members.share("bobswork0001", { email: "eve@example.com" }, "viewer")).rejects.toThrow(
      "there is no account for eve@example.com; invite them first",
    );
    await expect(auth.members.share("bobswork0001", { userId: bob.userId }, "editor")).rejects.toThrow(
      "Bob owns this workspace already",
    );
  });

  it("makes an admin owner of every workspace", async () => {
    expect(await auth.roles.of(admin, "adaswork0001")).toBe("owner");
    expect(await auth.roles.of(admin, "bobswork0001")).toBe("owner");
  });

  it("lists a user's own and shared workspaces with role and owner, and every one for an admin asking for all", async () => {
    await auth.members.share("bobswork0001", { userId: ada.userId }, "viewer");
    expect(Object.fromEntries(await auth.roles.listings(ada))).toEqual({
      adaswork0001: { role: "owner", owner: { id: ada.userId, name: "Ada" } },
      bobswork0001: { role: "viewer", owner: { id: bob.userId, name: "Bob" } },
    });
    expect([...(await auth.roles.listings(bob)).keys()]).toEqual(["bobswork0001"]);
    // `all` is an admin's: a member asking for it still sees only theirs.
    expect([...(await auth.roles.listings(bob, { all: true })).keys()]).toEqual(["bobswork0001"]);
    expect([...(await auth.roles.listings(admin)).keys()]).toEqual([]);
    expect([...(await auth.roles.listings(admin, { all: true })).keys()].sort()).toEqual([
      "adaswork0001",
      "bobswork0001",
    ]);
  });

  it("ends a person's connections on a workspace whose share was revoked elsewhere, at the next sweep, and only there", async () => {
    await auth.members.share("bobswork0001", { userId: ada.userId }, "editor");
    const session = await auth.createSession(ada.userId);
    const principal = (await auth.session(session.cookie)) as User;
    const ended: string[] = [];
    const connection = (name: string) => ({ end: (code: number) => ended.push(`${name} ${code}`) });
    auth.connections.add(principal, connection("on bob's"), "bobswork0001");
    auth.connections.add(principal, connection("on her own"), "adaswork0001");
    await auth.endLostSessions();
    expect(ended).toEqual([]);
    // Another instance revokes: only the row goes; this one learns it from the database.
    await database.db.deleteFrom("workspace_members").execute();
    await auth.endLostSessions();
    expect(ended).toEqual([`on bob's ${AccessCloseCode.ShareRevoked}`]);
    expect(auth.connections.held().map((h) => h.workspaceId)).toEqual(["adaswork0001"]);
  });
});
