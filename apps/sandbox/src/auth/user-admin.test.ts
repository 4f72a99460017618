import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../config/limits";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { addWorkspaceRow } from "../db/testing/workspace-rows";
import { LocalBus } from "../events/live-bus";
import { UserLimits } from "../workspaces/user-limits";
import { Accounts } from "./accounts";
import { AuthService } from "./auth-service";
import { PeopleChanges } from "./people-changes";
import { UserAdmin } from "./user-admin";

describe.each(DIALECTS)("the administration of people on %s", (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let auth: AuthService;
  let admin: UserAdmin;
  let accounts: Accounts;
  /** The workspaces the service was asked to stop (the real stop runs in the docker tests). */
  let stopped: string[];
  let changed: string[];
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
    auth = new AuthService(db);
    accounts = new Accounts(db);
    stopped = [];
    changed = [];
    admin = new UserAdmin({
      db,
      limits: new UserLimits(db, DEFAULT_LIMITS, { memoryMb: 1024, cpus: 1, diskMb: 0 }),
      listWorkspaces: async () => [],
      endSessions: (id) => auth.endUserSessions(id),
      revokeShares: (id) => auth.shares.revokeWorkspace(id),
      stopWorkspace: async (id) => stopped.push(id),
      publishWorkspaceChange: async (id) => {
        changed.push(id);
      },
      changes: new PeopleChanges(new LocalBus(), () => undefined),
      log: () => undefined,
    });
  });
  afterEach(async () => {
    await database.close();
  });

  it("lists every user with role, suspension, workspace count and limits", async () => {
    const mia = await accounts.create({ email: "mia@example.com", displayName: "Mia", siteRole: "member" });
    await addWorkspaceRow(db, "w1", { ownerId: mia.id, state: "stopped" });
    await admin.update(mia.id, { limits: { running: 1 } });
    const list = await admin.list();
    expect(list.map((u) => [u.displayName, u.siteRole, u.workspaces, u.suspendedAt])).toEqual([
      ["Owner", "admin", 0, null],
      ["Mia", "member", 1, null],
    ]);
    expect(list[1]?.limits).toEqual({ ...DEFAULT_LIMITS, running: 1 });
    expect(list[1]?.ownLimits).toEqual({ running: 1 });
    await admin.update(mia.id, { limits: null });
    expect((await admin.list())[1]?.ownLimits).toEqual({});
  });

  it("never demotes, suspends or deletes the last admin", async () => {
    const last =
      "this is the last admin: make someone else an admin first, so someone can still let people in";
    await expect(admin.update(FIRST_ADMIN_ID, { role: "member" })).rejects.toThrow(last);
    await expect(admin.update(FIRST_ADMIN_ID, { suspended: true })).rejects.toThrow(last);
    const ana = await accounts.create({ email: "ana@example.com", displayName: "Ana", siteRole: "admin" });
    await expect(admin.remove(ana.id)).resolves.toBeUndefined();
    const bea = await accounts.create({ email: "bea@example.com", displayName: "Bea", siteRole: "admin" });
    await admin.update(FIRST_ADMIN_ID, { role: "member" });
    await expect(admin.update(bea.id, { suspended: true })).rejects.toThrow(last);
    await expect(admin.remove(bea.id)).rejects.toThrow(last);
    expect((await accounts.byId(bea.id))?.siteRole).toBe("admin");
  });

  it("refuses to delete a user who owns workspaces until they are given away", async () => {
    const mia = await accounts.create({ email: "mia@example.com", displayName: "Mia", siteRole: "member" });
    await addWorkspaceRow(db, "w1", { ownerId: mia.id, state: "stopped" });
    await addWorkspaceRow(db, "w2", { ownerId: mia.id, state: "stopped" });
    await expect(admin.remove(mia.id)).rejects.toMatchObject({
      kind: "precondition",
      message: "Mia owns 2 workspaces: delete or give away their 2 workspaces first",
    });
    await admin.transfer("w1", FIRST_ADMIN_ID);
    await admin.transfer("w2", FIRST_ADMIN_ID);
    await admin.remove(mia.id);
    expect(await accounts.byId(mia.id)).toBeNull();
    const owners = await db.selectFrom("workspaces").select("owner_id").execute();
    expect(owners.map((o) => o.owner_id)).toEqual([FIRST_ADMIN_ID, FIRST_ADMIN_ID]);
  });

  it("suspending a user ends their sessions, revokes their workspaces' links and stops their running workspaces", async () => {
    const mia = await accounts.create({ email: "mia@example.com", displayName: "Mia", siteRole: "member" });
    const { cookie } = await auth.createSession(mia.id);
    await addWorkspaceRow(db, "w1", { ownerId: mia.id, state: "running" });
    await addWorkspaceRow(db, "w2", { ownerId: mia.id, state: "stopped" });
    const link = await auth.shares.create("w1", "editor", undefined);
    const guest = await auth.shares.join(link.secret, "Gus");
    expect(await auth.session(cookie)).not.toBeNull();
    const view = await admin.update(mia.id, { suspended: true });
    expect(view.suspendedAt).not.toBeNull();
    expect(await auth.session(cookie)).toBeNull();
    expect(await db.selectFrom("login_sessions").where("user_id", "=", mia.id).selectAll().execute()).toEqual(
      [],
    );
    expect(await auth.session(guest?.cookie)).toBeNull();
    expect(stopped).toEqual(["w1"]);
    // Unsuspended, they sign in again (their old sessions stay ended).
    await admin.update(mia.id, { suspended: false });
    expect(await auth.session((await auth.createSession(mia.id)).cookie)).not.toBeNull();
  });

  it("gives a workspace to someone else, never to a suspended user or into nothing", async () => {
    const mia = await accounts.create({ email: "mia@example.com", displayName: "Mia", siteRole: "member" });
    await addWorkspaceRow(db, "w1", { ownerId: FIRST_ADMIN_ID, state: "stopped" });
    await admin.transfer("w1", mia.id);
    expect((await admin.list()).find((u) => u.id === mia.id)?.workspaces).toBe(1);
    expect(changed).toEqual(["w1"]);
    await expect(admin.transfer("nosuch", mia.id)).rejects.toMatchObject({ kind: "not_found" });
    await expect(admin.transfer("w1", "nobody")).rejects.toMatchObject({ kind: "not_found" });
    await admin.update(mia.id, { suspended: true });
    await expect(admin.transfer("w1", mia.id)).rejects.toThrow("Mia is suspended: unsuspend them first");
  });

  it("gives a workspace only to someone whose limits it fits, and says whose limit and how to free it", async () => {
    const mia = await accounts.create({ email: "mia@example.com", displayName: "Mia", siteRole: "member" });
    await admin.update(mia.id, { limits: { workspaces: 2, running: 1 } });
    await addWorkspaceRow(db, "mine1", { ownerId: mia.id, state: "running" });
    await addWorkspaceRow(db, "w1", { ownerId: FIRST_ADMIN_ID, state: "running" });
    await expect(admin.transfer("w1", mia.id)).rejects.toMatchObject({
      kind: "too_many",
      message: "Mia has 1 of 1 running workspace; raise their limits or free one of theirs first",
    });
    await addWorkspaceRow(db, "mine2", { ownerId: mia.id, state: "stopped" });
    await addWorkspaceRow(db, "w2", { ownerId: FIRST_ADMIN_ID, state: "stopped" });
    await expect(admin.transfer("w2", mia.id)).rejects.toMatchObject({
      kind: "too_many",
      message: "Mia has 2 of 2 workspaces; raise their limits or free one of theirs first",
    });
    const owners = await db
      .selectFrom("workspaces")
      .select(["id", "owner_id"])
      .where("id", "in", ["w1", "w2"])
      .execute();
    expect(owners.every((o) => o.owner_id === FIRST_ADMIN_ID)).toBe(true);
    expect(changed).toEqual([]);
  });
});
