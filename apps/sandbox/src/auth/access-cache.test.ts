import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ClusterMembership, joinCluster } from "../cluster/join-cluster";
import { DEFAULT_LIMITS } from "../config/limits";
import type { Db } from "../db/database";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { addWorkspaceRow } from "../db/testing/workspace-rows";
import { type LiveBus, LocalBus } from "../events/live-bus";
import { PreviewGate } from "../preview/preview-gate";
import { PreviewSessions } from "../preview/preview-sessions";
import { PreviewVisibilityStore } from "../preview/preview-visibility";
import { UserLimits } from "../workspaces/user-limits";
import { AccessCache } from "./access-cache";
import { Accounts } from "./accounts";
import { AuthService } from "./auth-service";
import { PeopleChanges } from "./people-changes";
import { hashSecret } from "./secrets";
import { UserAdmin } from "./user-admin";

/** One service instance's access checks as the service wires them: the cache's plugin sees every write. */
function instance(raw: Db) {
  const access = new AccessCache();
  const db = raw.withPlugin(access.writes);
  const auth = new AuthService(db, undefined, access);
  const visibility = new PreviewVisibilityStore(db);
  const gate = new PreviewGate({
    auth,
    roles: auth.roles,
    sessions: new PreviewSessions(db),
    visibility,
    access,
  });
  const admin = new UserAdmin({
    db,
    limits: new UserLimits(db, DEFAULT_LIMITS, { memoryMb: 1024, cpus: 1, diskMb: 0 }),
    listWorkspaces: async () => [],
    endSessions: (id) => auth.endUserSessions(id),
    revokeShares: (id) => auth.shares.revokeWorkspace(id),
    stopWorkspace: async () => undefined,
    publishWorkspaceChange: async () => undefined,
    changes: new PeopleChanges(new LocalBus(), () => undefined),
    log: () => undefined,
  });
  return { access, db, auth, gate, visibility, admin };
}

/** A user with a session, and their workspace. */
async function signedIn(db: Db, siteRole: "admin" | "member" = "member") {
  const accounts = new Accounts(db);
  const user = await accounts.create({ email: `${siteRole}@example.com`, displayName: "Mia", siteRole });
  const { cookie } = await new AuthService(db).createSession(user.id);
  return { userId: user.id, cookie };
}

describe.each(DIALECTS)("the access cache on %s: every change refuses the very next request", (dialect) => {
  let database: TestDatabase;
  let here: ReturnType<typeof instance>;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    here = instance(database.db);
  });
  afterEach(async () => {
    await database.close();
  });

  it("remembers who a cookie is and their role, without asking the database again", async () => {
    const { userId, cookie } = await signedIn(here.db);
    await addWorkspaceRow(here.db, "miaswork0001", { ownerId: userId });
    const first = await here.auth.session(cookie);
    if (first?.kind !== "user") throw new Error("not signed in");
    expect(await here.auth.roles.of(first, "miaswork0001")).toBe("owner");
    // Behind the cache's back (another process): the answers stay what they were for a moment.
    await database.db.deleteFrom("workspaces").execute();
    await database.db.deleteFrom("login_sessions").execute();
    expect(await here.auth.session(cookie)).toEqual(first);
    expect(await here.auth.roles.of(first, "miaswork0001")).toBe("owner");
  });

  it("keeps its answers through the writes people's work makes: their last-seen time, a workspace's last use", async () => {
    const { userId, cookie } = await signedIn(here.db);
    await addWorkspaceRow(here.db, "miaswork0003", { ownerId: userId });
    const first = await here.auth.session(cookie);
    await database.db.deleteFrom("login_sessions").execute();
    const now = new Date().toISOString();
    await here.db.updateTable("users").set({ last_seen_at: now }).where("id", "=", userId).execute();
    await here.db
      .updateTable("workspaces")
      .set({ last_used_at: now })
      .where("id", "=", "miaswork0003")
      .execute();
    expect(await here.auth.session(cookie)).toEqual(first);
  });

  it("a logout refuses the cookie's very next request", async () => {
    const { cookie } = await signedIn(here.db);
    expect(await here.auth.session(cookie)).not.toBeNull();
    await here.auth.endSession(cookie);
    expect(await here.auth.session(cookie)).toBeNull();
  });

  it("a suspension refuses the person's very next request", async () => {
    const { userId, cookie } = await signedIn(here.db);
    expect(await here.auth.session(cookie)).not.toBeNull();
    await here.admin.update(userId, { suspended: true });
    expect(await here.auth.session(cookie)).toBeNull();
  });

  it("an administrator made a member is no administrator on their very next request", async () => {
    const { userId, cookie } = await signedIn(here.db, "admin");
    expect(await here.auth.session(cookie)).toMatchObject({ siteRole: "admin" });
    await here.admin.update(userId, { role: "member" });
    expect(await here.auth.session(cookie)).toMatchObject({ siteRole: "member" });
  });

  it("a named share revoked refuses the person's very next call on that workspace", async () => {
    const owner = await signedIn(here.db, "admin");
    await addWorkspaceRow(here.db, "ownerswork01", { ownerId: owner.userId });
    const bob = await new Accounts(here.db).create({
      email: "bob@example.com",
      displayName: "Bob",
      siteRole: "member",
    });
    const { cookie } = await new AuthService(here.db).createSession(bob.id);
    await here.auth.members.share("ownerswork01", { userId: bob.id }, "editor");
    const principal = await here.auth.session(cookie);
    if (!principal) throw new Error("not signed in");
    expect(await here.auth.roles.of(principal, "ownerswork01")).toBe("editor");
    await here.auth.members.share("ownerswork01", { userId: bob.id }, "viewer");
    expect(await here.auth.roles.of(principal, "ownerswork01")).toBe("viewer");
    await here.auth.members.revoke("ownerswork01", bob.id);
    expect(await here.auth.roles.of(principal, "ownerswork01")).toBeNull();
  });

  it("a share link revoked refuses its guest's very next request", async () => {
    const owner = await signedIn(here.db);
    await addWorkspaceRow(here.db, "ownerswork02", { ownerId: owner.userId });
    const link = await here.auth.shares.create("ownerswork02", "editor", undefined);
    const joined = await here.auth.shares.join(link.secret, "Guest");
    if (!joined) throw new Error("could not join");
    expect(await here.auth.session(joined.cookie)).toMatchObject({ kind: "guest", role: "editor" });
    await here.auth.shares.revoke(link.id);
    expect(await here.auth.session(joined.cookie)).toBeNull();
  });

  it("a port made private refuses the very next preview request of someone outside the workspace", async () => {
    const owner = await signedIn(here.db);
    await addWorkspaceRow(here.db, "ownerswork03", { ownerId: owner.userId });
    const target = { workspaceId: "ownerswork03", port: 3000 };
    await here.visibility.set("ownerswork03", 3000, "public");
    expect(await here.gate.check(undefined, target)).toMatchObject({ kind: "allow" });
    await here.visibility.set("ownerswork03", 3000, "private");
    expect(await here.gate.check(undefined, target)).toEqual({ kind: "sign-in" });
  });

  it("a preview cookie whose IDE session logged out is refused on its very next request", async () => {
    const { userId, cookie } = await signedIn(here.db);
    await addWorkspaceRow(here.db, "miaswork0002", { ownerId: userId });
    const target = { workspaceId: "miaswork0002", port: 3000 };
    const previewCookie = await new PreviewSessions(here.db).create(
      { sessionId: hashSecret(cookie), kind: "user" },
      target,
    );
    expect(await here.gate.check(previewCookie, target)).toMatchObject({ kind: "allow" });
    await here.auth.endSession(cookie);
    expect(await here.gate.check(previewCookie, target)).toEqual({ kind: "sign-in" });
  });

  it("a lookup still running when access changes is not remembered", async () => {
    const { cookie } = await signedIn(here.db);
    const before = here.auth.session(cookie);
    await here.auth.endSession(cookie);
    await before;
    expect(await here.auth.session(cookie)).toBeNull();
  });
});

describe("the access cache of two instances on one PostgreSQL database", () => {
  let database: TestDatabase | undefined;
  const members: ClusterMembership[] = [];
  afterEach(async () => {
    for (const member of members.splice(0)) await member.leave();
    await database?.close();
  });

  it("a logout on one instance refuses the cookie's next request on the other as soon as the other hears of it", async () => {
    database = await openTestDatabase("postgres");
    const a = instance(database.db);
    const b = instance(await database.connect());
    const buses: LiveBus[] = [];
    for (const side of [a, b]) {
      const member = await joinCluster(database.settings, side.db, () => {});
      members.push(member);
      side.access.listen(member.bus);
      buses.push(member.bus);
    }
    const { cookie } = await signedIn(a.db);
    expect(await b.auth.session(cookie)).not.toBeNull();
    const heard = new Promise<void>((resolve) =>
      buses[1]?.listen("access", (notice) => {
        if (!notice.local) resolve();
      }),
    );
    await a.auth.endSession(cookie);
    // Long before B's own half second is up: B forgets as soon as it hears A on the bus.
    await heard;
    expect(await b.auth.session(cookie)).toBeNull();
  });
});
