import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../db/database";
import { AuthService } from "./auth-service";
import { hashSecret } from "./secrets";

describe("AuthService", () => {
  let dir: string;
  let db: Db;
  let auth: AuthService;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "coder-auth-"));
    db = await openDatabase(dir);
    auth = new AuthService(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
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
    const { cookie } = await auth.createSession();
    expect(await auth.verifySession(cookie)).toBe(true);
    expect(await auth.verifySession(undefined)).toBe(false);
    await auth.endSession(cookie);
    expect(await auth.verifySession(cookie)).toBe(false);
    const second = await auth.createSession();
    await db
      .updateTable("login_sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await auth.verifySession(second.cookie)).toBe(false);
  });
});
