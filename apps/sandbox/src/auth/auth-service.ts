import { AccessCloseCode } from "@coder/protocol";
import type { Db } from "../db/database";
import { FIRST_ADMIN_ID } from "../db/migrations";
import { AccessCache } from "./access-cache";
import { ConnectionRegistry } from "./connection-registry";
import { Invites } from "./invites";
import { LastSeen } from "./last-seen";
import { NamedShares } from "./named-shares";
import { Passwords } from "./passwords";
import type { Principal } from "./principal";
import { Profiles } from "./profiles";
import { hashSecret, newSecret } from "./secrets";
import { ShareLinks } from "./share-links";
import { SignInFailures } from "./sign-in-failures";
import { WorkspaceRoles } from "./workspace-roles";

const SESSION_DAYS = 30;
const TICKET_MINUTES = 15;

/**
 * Who may use the service: the owner, who proves it with the admin token (made at first start,
 * stored only as a hash) or a single-use login link printed at each start, and then carries an
 * HttpOnly session cookie whose value is also stored only as a hash. Ending a session ends the
 * sockets and subscriptions it opened (registered in `connections`).
 */
export class AuthService {
  /** Share links and the guests who joined through them. */
  readonly shares: ShareLinks;
  /** Each user's role on each workspace, from the database. */
  readonly roles: WorkspaceRoles;
  /** Workspaces shared with people by name. */
  readonly members: NamedShares;
  /** What people change about their own accounts. */
  readonly profiles: Profiles;
  /** Invitations and reset links that set a password (invites.ts). */
  readonly invites: Invites;
  /** Signing in with an e-mail address and a password (passwords.ts). */
  readonly passwords: Passwords;
  /** Wrong passwords per account, counted by every instance together. */
  readonly signInFailures: SignInFailures;
  private readonly lastSeen: LastSeen;

  /**
   * `access` remembers the answers of `sessionById` and `roles.of` for a moment; it must see every
   * write to `db` (its plugin is on it), or be `AccessCache.none()` (the default).
   */
  constructor(
    private readonly db: Db,
    readonly connections = new ConnectionRegistry(),
    private readonly access = AccessCache.none(),
  ) {
    this.shares = new ShareLinks(db, connections);
    this.roles = new WorkspaceRoles(db, access);
    this.members = new NamedShares(db, connections);
    this.profiles = new Profiles(db);
    this.invites = new Invites(db);
    this.passwords = new Passwords(db);
    this.signInFailures = new SignInFailures(db);
    this.lastSeen = new LastSeen(db);
  }

  /** Makes the admin token at first start; returns it (to print once) or null when one exists. */
  async ensureAdminToken(): Promise<string | null> {
    const existing = await this.db.selectFrom("admin_tokens").select("id").executeTakeFirst();
    if (existing) return null;
    return this.rotateAdminToken();
  }

  /**
   * Replaces every admin token with a new one (for a lost or leaked token) and ends every owner
   * session: whoever logged in with the old token is out. `npm run token` calls this from its own
   * process; the running service notices the deleted sessions in its next sweep.
   */
  async rotateAdminToken(): Promise<string> {
    const token = newSecret();
    const ended = await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("admin_tokens").execute();
      await tx
        .insertInto("admin_tokens")
        .values({
          token_hash: hashSecret(token),
          created_at: new Date().toISOString(),
          user_id: FIRST_ADMIN_ID,
        })
        .execute();
      return tx.deleteFrom("login_sessions").returning("id_hash").execute();
    });
    for (const { id_hash } of ended) this.endConnections(id_hash);
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

  /** A login of `userId` (a new cookie); only a way of signing in that proved who they are calls this. */
  async createSession(userId: string): Promise<{ cookie: string; maxAgeSeconds: number }> {
    const cookie = newSecret();
    const now = Date.now();
    await this.db
      .insertInto("login_sessions")
      .values({
        id_hash: hashSecret(cookie),
        user_id: userId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + SESSION_DAYS * 86_400_000).toISOString(),
      })
      .execute();
    return { cookie, maxAgeSeconds: SESSION_DAYS * 86_400 };
  }

  /**
   * The owner or guest session a cookie belongs to, or null when it is unknown, ended or expired
   * (for a guest also when the link was revoked or expired or the workspace is gone).
   */
  async session(cookie: string | undefined): Promise<Principal | null> {
    if (!cookie) return null;
    return this.sessionById(hashSecret(cookie));
  }

  /** Like `session`, by the stored id of the session (the hash of its cookie): a preview origin's check. */
  async sessionById(sessionId: string): Promise<Principal | null> {
    const principal = await this.access.remember(`session\n${sessionId}`, () =>
      this.lookUpSession(sessionId),
    );
    if (principal?.kind === "user") void this.lastSeen.touch(principal.userId);
    return principal;
  }

  private async lookUpSession(sessionId: string): Promise<Principal | null> {
    const row = await this.db
      .selectFrom("login_sessions")
      .innerJoin("users", "users.id", "login_sessions.user_id")
      .select(["users.id", "users.display_name", "users.site_role"])
      .where("login_sessions.id_hash", "=", sessionId)
      .where("login_sessions.expires_at", ">", new Date().toISOString())
      .where("users.suspended_at", "is", null)
      .executeTakeFirst();
    if (!row) return this.shares.guest(sessionId);
    return { kind: "user", sessionId, userId: row.id, name: row.display_name, siteRole: row.site_role };
  }

  /**
   * Why a cookie that no longer signs anyone in stopped working, when the page can be told more
   * than "log in": a guest's link was revoked or expired, or its workspace deleted.
   */
  async whyEnded(cookie: string | undefined): Promise<AccessCloseCode | null> {
    if (!cookie) return null;
    const code = await this.shares.whyEnded(hashSecret(cookie));
    return code === AccessCloseCode.LoggedOut ? null : code;
  }

  /**
   * Ends every session of a user (a suspension): refused from now on, and the connections they
   * opened here closed at once; other instances' sweepers find the sessions gone.
   */
  async endUserSessions(userId: string): Promise<void> {
    const ended = await this.db
      .deleteFrom("login_sessions")
      .where("user_id", "=", userId)
      .returning("id_hash")
      .execute();
    for (const { id_hash } of ended) this.endConnections(id_hash);
  }

  /** Logout: the cookie is refused from now on and what it opened is closed. */
  async endSession(cookie: string): Promise<void> {
    const who = await this.session(cookie);
    if (!who) return;
    if (who.kind === "user") {
      await this.db.deleteFrom("login_sessions").where("id_hash", "=", who.sessionId).execute();
    } else {
      await this.shares.endGuestSession(who.sessionId);
    }
    this.connections.end(who, AccessCloseCode.LoggedOut);
  }

  /**
   * Closes the connections of sessions that no longer exist or have expired (guests also when
   * their link was revoked or expired); returns how many sessions that was. Sessions are deleted
   * by other processes too (`npm run token`), and expiry has no event, so the service runs this
   * every fraction of a second: one query over the sessions that hold connections. Then a user's
   * connections on a workspace where they lost their role (a named share revoked on another
   * instance) end too: one query over the (user, workspace) pairs held.
   */
  async endLostSessions(): Promise<number> {
    const guests = await this.shares.endLostGuests();
    const users = await this.endLostUserSessions();
    await this.endLostRoles();
    return guests + users;
  }

  private async endLostUserSessions(): Promise<number> {
    const held = this.connections.sessionIds("user");
    if (held.length === 0) return 0;
    const live = await this.db
      .selectFrom("login_sessions")
      .innerJoin("users", "users.id", "login_sessions.user_id")
      .select("login_sessions.id_hash")
      .where("login_sessions.id_hash", "in", held)
      .where("login_sessions.expires_at", ">", new Date().toISOString())
      .where("users.suspended_at", "is", null)
      .execute();
    const alive = new Set(live.map((r) => r.id_hash));
    const lost = held.filter((id) => !alive.has(id));
    for (const id of lost) this.endConnections(id);
    return lost.length;
  }

  private async endLostRoles(): Promise<void> {
    const held = this.connections
      .held()
      .flatMap(({ principal, workspaceId }) =>
        principal.kind === "user" ? [{ userId: principal.userId, workspaceId }] : [],
      );
    const still = await this.roles.stillHeld(held);
    for (const pair of held) {
      const holds = still.get(WorkspaceRoles.key(pair));
      if (holds === true) continue;
      const code = holds === false ? AccessCloseCode.ShareRevoked : AccessCloseCode.NoWorkspace;
      this.members.endConnections(pair.userId, pair.workspaceId, code);
    }
  }

  /** Deletes expired sessions and login tickets. */
  async purgeExpired(): Promise<void> {
    const now = new Date().toISOString();
    await this.db.deleteFrom("login_sessions").where("expires_at", "<=", now).execute();
    await this.db.deleteFrom("login_tickets").where("expires_at", "<=", now).execute();
    await this.shares.purgeExpired();
    await this.invites.purgeExpired();
    await this.signInFailures.purge();
  }

  private endConnections(sessionId: string): void {
    this.connections.end({ kind: "user", sessionId }, AccessCloseCode.LoggedOut);
  }
}
