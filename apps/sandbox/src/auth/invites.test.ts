import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { Accounts } from "./accounts";
import { AuthService } from "./auth-service";
import { INVITE_DAYS } from "./invites";
import { hashSecret } from "./secrets";

const PASSWORD = "violet-harbour-lantern";

describe.each(DIALECTS)("invitations and reset links on %s", (dialect) => {
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

  const invite = (email = "ada@example.com", role: "admin" | "member" = "member") =>
    auth.invites.invite({ email, role, createdBy: FIRST_ADMIN_ID });

  it("makes an account with the invited role and password from a link, and stores only hashes", async () => {
    const { secret, expiresAt } = await invite("Ada@Example.com", "admin");
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan((INVITE_DAYS - 0.01) * 86_400_000);
    expect(await auth.invites.preview(secret)).toEqual({ email: "ada@example.com", kind: "invite" });
    const accepted = await auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD });
    const user = await new Accounts(db).byEmail("ada@example.com");
    expect(user).toMatchObject({ id: accepted?.userId, displayName: "Ada", siteRole: "admin" });
    expect(await auth.passwords.check("ADA@example.com", PASSWORD)).toEqual({
      userId: user?.id,
      suspended: false,
    });
    const stored = JSON.stringify([
      await db.selectFrom("invites").selectAll().execute(),
      await db.selectFrom("user_passwords").selectAll().execute(),
    ]);
    expect(stored).toContain(hashSecret(secret));
    expect(stored).toContain("$argon2id$v=19$m=19456,t=2,p=1$");
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(PASSWORD);
  });

  it("lets a link be used only once", async () => {
    const { secret } = await invite();
    expect(await auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD })).not.toBeNull();
    expect(await auth.invites.preview(secret)).toBeNull();
    expect(
      await auth.invites.accept(secret, { displayName: "Eve", password: "another-long-passphrase" }),
    ).toBeNull();
    expect(await auth.passwords.check("ada@example.com", "another-long-passphrase")).toBeNull();
  });

  it("lets only one of two uses racing for the same link succeed", async () => {
    const { secret } = await invite();
    const results = await Promise.allSettled([
      auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD }),
      auth.invites.accept(secret, { displayName: "Eve", password: "another-long-passphrase" }),
    ]);
    const made = results.filter((r) => r.status === "fulfilled" && r.value !== null);
    expect(made).toHaveLength(1);
    expect(
      await db.selectFrom("users").select("id").where("email", "=", "ada@example.com").execute(),
    ).toHaveLength(1);
  });

  it("refuses a link past its seven days", async () => {
    const { secret } = await invite();
    await db
      .updateTable("invites")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await auth.invites.preview(secret)).toBeNull();
    expect(await auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD })).toBeNull();
    expect(await new Accounts(db).byEmail("ada@example.com")).toBeNull();
  });

  it("refuses an unknown link", async () => {
    expect(await auth.invites.preview("no-such-secret")).toBeNull();
    expect(
      await auth.invites.accept("no-such-secret", { displayName: "Ada", password: PASSWORD }),
    ).toBeNull();
  });

  it("refuses a weak password with its reason and keeps the link usable", async () => {
    const { secret } = await invite();
    for (const [password, reason] of [
      ["short-one", /at least 10 characters/],
      ["ada@example.com", /e-mail address/],
      ["aaaaaaaaaaaa", /repeated/],
      ["abababababab", /repeated/],
      ["1234567890", /keyboard or the alphabet/],
    ] as const) {
      await expect(auth.invites.accept(secret, { displayName: "Ada", password })).rejects.toThrow(reason);
    }
    expect(await auth.invites.preview(secret)).not.toBeNull();
    expect(await auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD })).not.toBeNull();
  });

  it("will not invite an address that already has an account", async () => {
    await new Accounts(db).create({ email: "ada@example.com", displayName: "Ada", siteRole: "member" });
    await expect(invite("ADA@example.com")).rejects.toThrow(/already an account.*reset link/);
  });

  it("sets a new password through a reset link and signs the account's other sessions out", async () => {
    const { secret } = await invite();
    const { userId } = (await auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD })) ?? {};
    const before = await auth.createSession(userId ?? "");
    const reset = await auth.invites.reset({ userId: userId ?? "", createdBy: FIRST_ADMIN_ID });
    expect(await auth.invites.preview(reset.secret)).toEqual({ email: "ada@example.com", kind: "reset" });
    const fresh = "saffron-meadow-compass";
    expect(await auth.invites.accept(reset.secret, { displayName: undefined, password: fresh })).toEqual({
      userId,
      kind: "reset",
    });
    expect(await auth.passwords.check("ada@example.com", PASSWORD)).toBeNull();
    expect(await auth.passwords.check("ada@example.com", fresh)).toMatchObject({ userId });
    expect(await auth.session(before.cookie)).toBeNull();
    expect((await new Accounts(db).byId(userId ?? ""))?.displayName).toBe("Ada");
  });

  it("refuses a reset link for an account without an e-mail address or that does not exist", async () => {
    await expect(auth.invites.reset({ userId: FIRST_ADMIN_ID, createdBy: FIRST_ADMIN_ID })).rejects.toThrow(
      /no e-mail address/,
    );
    await expect(auth.invites.reset({ userId: "nobody", createdBy: FIRST_ADMIN_ID })).rejects.toThrow(
      /no such account/,
    );
  });

  it("gives the same answer for an unknown address and a wrong password, and tells a suspended account apart only after the right password", async () => {
    const { secret } = await invite();
    const { userId } = (await auth.invites.accept(secret, { displayName: "Ada", password: PASSWORD })) ?? {};
    expect(await auth.passwords.check("nobody@example.com", PASSWORD)).toBeNull();
    expect(await auth.passwords.check("ada@example.com", "wrong-long-password")).toBeNull();
    await db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("id", "=", userId ?? "")
      .execute();
    expect(await auth.passwords.check("ada@example.com", "wrong-long-password")).toBeNull();
    expect(await auth.passwords.check("ada@example.com", PASSWORD)).toEqual({ userId, suspended: true });
  });
});
