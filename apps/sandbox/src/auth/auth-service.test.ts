import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { AuthService } from "./auth-service";
import { hashSecret } from "./secrets";
import { ENDED_GUESTS_KEPT_DAYS } from "./share-links";

describe.each(DIALECTS)("AuthService on %s", (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let auth: AuthService;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
    auth = new AuthService(db);
  });
  afterEach(async () => {
    await database.close();
  });

  it("makes the admin token once and stores only its hash", async () => {
    const token = await auth.ensureAdminToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await auth.ensureAdminToken()).toBeNull();
    const rows = await db.selectFrom("admin_tokens").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashSecret(token ?? ""));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("accepts the admin token and refuses anything else", async () => {
    const token = (await auth.ensureAdminToken()) ?? "";
    expect(await auth.verifyAdminToken(token)).toBe(true);
    expect(await auth.verifyAdminToken(`${token}x`)).toBe(false);
    expect(await auth.verifyAdminToken("")).toBe(false);
  });

  it("invalidates the old admin token when rotated", async () => {
    const old = (await auth.ensureAdminToken()) ?? "";
    const fresh = await auth.rotateAdminToken();
    expect(await auth.verifyAdminToken(old)).toBe(false);
    expect(await auth.verifyAdminToken(fresh)).toBe(true);
  });

  it("lets a login ticket be used exactly once", async () => {
    const ticket = await auth.createLoginTicket();
    expect(await auth.redeemLoginTicket(ticket)).toBe(true);
    expect(await auth.redeemLoginTicket(ticket)).toBe(false);
  });

  it("refuses an expired login ticket", async () => {
    const ticket = await auth.createLoginTicket();
    await db
      .updateTable("login_tickets")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await auth.redeemLoginTicket(ticket)).toBe(false);
  });

  it("accepts a session cookie until it is ended or expires", async () => {
    const { cookie } = await auth.createSession(FIRST_ADMIN_ID);
    expect(await auth.session(cookie)).toEqual({
      kind: "user",
      sessionId: hashSecret(cookie),
      userId: FIRST_ADMIN_ID,
      name: "Owner",
      siteRole: "admin",
    });
    expect(await auth.session(undefined)).toBeNull();
    await auth.endSession(cookie);
    expect(await auth.session(cookie)).toBeNull();
    const second = await auth.createSession(FIRST_ADMIN_ID);
    await expire("login_sessions");
    expect(await auth.session(second.cookie)).toBeNull();
  });

  it("logs everyone out when the admin token is replaced", async () => {
    await auth.ensureAdminToken();
    const first = await auth.createSession(FIRST_ADMIN_ID);
    const second = await auth.createSession(FIRST_ADMIN_ID);
    await auth.rotateAdminToken();
    expect(await auth.session(first.cookie)).toBeNull();
    expect(await auth.session(second.cookie)).toBeNull();
  });

  it("closes a session's connections at logout, and those of sessions ended elsewhere at the next sweep", async () => {
    const ended: string[] = [];
    const open = async (name: string) => {
      const { cookie } = await auth.createSession(FIRST_ADMIN_ID);
      const principal = await auth.session(cookie);
      if (!principal) throw new Error("no session");
      auth.connections.add(principal, { end: (code) => ended.push(`${name} ${code}`) });
      return cookie;
    };
    const loggingOut = await open("logout");
    const elsewhere = await open("elsewhere");
    const expiring = await open("expiry");
    await open("kept");

    await auth.endSession(loggingOut);
    expect(ended).toEqual(["logout 4401"]);

    // Another process (another instance, `npm run token`) deletes a session; a third one expires.
    await new AuthService(db).endSession(elsewhere);
    await db
      .updateTable("login_sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id_hash", "=", hashSecret(expiring))
      .execute();
    expect(ended).toHaveLength(1);
    expect(await auth.endLostSessions()).toBe(2);
    expect(ended.sort()).toEqual(["elsewhere 4401", "expiry 4401", "logout 4401"]);
    expect(auth.connections.sessionIds("user")).toHaveLength(1);
  });

  it("purges expired sessions and login tickets, and keeps the others", async () => {
    await auth.createSession(FIRST_ADMIN_ID);
    await auth.createLoginTicket();
    await expire("login_sessions");
    await expire("login_tickets");
    const live = await auth.createSession(FIRST_ADMIN_ID);
    const ticket = await auth.createLoginTicket();
    await auth.purgeExpired();
    expect(await db.selectFrom("login_sessions").select("id_hash").execute()).toEqual([
      { id_hash: hashSecret(live.cookie) },
    ]);
    expect(await db.selectFrom("login_tickets").select("ticket_hash").execute()).toEqual([
      { ticket_hash: hashSecret(ticket) },
    ]);
  });

  it("keeps who joined a link on its list for a month after their session ended, then forgets them", async () => {
    await db
      .insertInto("workspaces")
      .values({
        id: "sharedworkspace1",
        name: "shared",
        egress: 0,
        image: "none",
        created_at: new Date().toISOString(),
        desired_state: "stopped",
        idle_stopped_at: null,
        last_used_at: null,
        import_record: null,
        transient: null,
      })
      .execute();
    const link = await auth.shares.create("sharedworkspace1", "viewer", undefined);
    const joined = await auth.shares.join(link.secret, "Ada");
    if (!joined) throw new Error("joining failed");
    await auth.shares.endGuestSession(hashSecret(joined.cookie));
    await auth.purgeExpired();
    expect((await auth.shares.list("sharedworkspace1"))[0]?.joined).toEqual(["Ada"]);
    expect(await auth.session(joined.cookie)).toBeNull();

    await db
      .updateTable("guest_sessions")
      .set({ expires_at: new Date(Date.now() - (ENDED_GUESTS_KEPT_DAYS + 1) * 86_400_000).toISOString() })
      .execute();
    await auth.purgeExpired();
    expect((await auth.shares.list("sharedworkspace1"))[0]?.joined).toEqual([]);
  });

  async function expire(table: "login_sessions" | "login_tickets"): Promise<void> {
    await db
      .updateTable(table)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
  }
});
