import type { Db } from "../db/database";
import { hashSecret, newSecret } from "./secrets";

const SESSION_DAYS = 30;
const TICKET_MINUTES = 15;

/**
 * Who may use the service: the owner, who proves it with the admin token (made at first start,
 * stored only as a hash) or a single-use login link printed at each start, and then carries an
 * HttpOnly session cookie whose value is also stored only as a hash.
 */
export class AuthService {
  constructor(private readonly db: Db) {}

  /** Makes the admin token at first start; returns it (to print once) or null when one exists. */
  async ensureAdminToken(): Promise<string | null> {
    const existing = await this.db.selectFrom("admin_tokens").select("id").executeTakeFirst();
    if (existing) return null;
    return this.rotateAdminToken();
  }

  /** Replaces every admin token with a new one (for a lost token). */
  async rotateAdminToken(): Promise<string> {
    const token = newSecret();
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("admin_tokens").execute();
      await tx
        .insertInto("admin_tokens")
        .values({ token_hash: hashSecret(token), created_at: new Date().toISOString() })
        .execute();
    });
    return token;
  }

  async verifyAdminToken(token: string): Promise<boolean> {
    if (!token) return false;
    const row = await this.db
      .selectFrom("admin_tokens")
      .select("id")
      .where("token_hash", "=", hashSecret(token))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A single-use login link secret, valid for a few minutes. */
  async createLoginTicket(): Promise<string> {
    const ticket = newSecret();
    const expires = new Date(Date.now() + TICKET_MINUTES * 60_000).toISOString();
    await this.db
      .insertInto("login_tickets")
      .values({ ticket_hash: hashSecret(ticket), expires_at: expires })
      .execute();
    return ticket;
  }

  /** Consumes a login ticket: true once, within its lifetime. */
  async redeemLoginTicket(ticket: string): Promise<boolean> {
    if (!ticket) return false;
    const result = await this.db
      .deleteFrom("login_tickets")
      .where("ticket_hash", "=", hashSecret(ticket))
      .where("expires_at", ">", new Date().toISOString())
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async createSession(): Promise<{ cookie: string; maxAgeSeconds: number }> {
    const cookie = newSecret();
    const now = Date.now();
    await this.db
      .insertInto("login_sessions")
      .values({
        id_hash: hashSecret(cookie),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + SESSION_DAYS * 86_400_000).toISOString(),
      })
      .execute();
    return { cookie, maxAgeSeconds: SESSION_DAYS * 86_400 };
  }

  async verifySession(cookie: string | undefined): Promise<boolean> {
    if (!cookie) return false;
    const row = await this.db
      .selectFrom("login_sessions")
      .select("id_hash")
      .where("id_hash", "=", hashSecret(cookie))
      .where("expires_at", ">", new Date().toISOString())
      .executeTakeFirst();
    return row !== undefined;
  }

  async endSession(cookie: string): Promise<void> {
    await this.db.deleteFrom("login_sessions").where("id_hash", "=", hashSecret(cookie)).execute();
  }
}
