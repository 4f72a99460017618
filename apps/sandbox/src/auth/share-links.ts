import { randomBytes } from "node:crypto";
import { AccessCloseCode } from "@coder/protocol";
import type { Db } from "../db/database";
import { ServiceError } from "../errors/service-error";
import type { ConnectionRegistry } from "./connection-registry";
import { lookalikeOf, nameTakenMessage } from "./guest-name";
import type { Principal } from "./principal";
import { hashSecret, newSecret } from "./secrets";

type GuestRole = "viewer" | "editor";
type Guest = Extract<Principal, { kind: "guest" }>;

/** A name that looks like the name of a guest already in the link's workspace. */
export class NameTakenError extends ServiceError {
  constructor(name: string, present: string) {
    // The link is right, the name is someone else's: no guess failed.
    super("bad_request", nameTakenMessage(name, present));
  }
}

/** A guest's login lasts as long as its link, and at most this long. */
const GUEST_SESSION_DAYS = 30;

export interface ShareLinkView {
  id: string;
  role: GuestRole;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The names of the guests who joined through the link, oldest first. */
  joined: string[];
  /** How many sockets and subscriptions its guests hold open right now. */
  openConnections: number;
}

/**
 * Share links: a secret URL that lets a person join one workspace as viewer or editor under a
 * name. The secret (256 random bits) and the guest's cookie are stored only as hashes. A revoked
 * link stays as a marked row so it can be listed and never works again; revoking or expiry ends
 * the guests' open connections (here at once, or in the sweeper's next pass).
 */
/** How long a guest's ended session is kept (for the link's list of who joined) before it is deleted. */
export const ENDED_GUESTS_KEPT_DAYS = 30;

export class ShareLinks {
  constructor(
    private readonly db: Db,
    private readonly connections: ConnectionRegistry,
  ) {}

  async create(
    workspaceId: string,
    role: GuestRole,
    expiresInSeconds: number | undefined,
  ): Promise<{ id: string; secret: string; role: GuestRole; expiresAt: string | null }> {
    const secret = newSecret();
    const id = randomBytes(9).toString("base64url");
    const now = Date.now();
    const expiresAt =
      expiresInSeconds === undefined ? null : new Date(now + expiresInSeconds * 1000).toISOString();
    await this.db
      .insertInto("share_links")
      .values({
        id,
        workspace_id: workspaceId,
        role,
        secret_hash: hashSecret(secret),
        created_at: new Date(now).toISOString(),
        expires_at: expiresAt,
        revoked_at: null,
      })
      .execute();
    return { id, secret, role, expiresAt };
  }

  async list(workspaceId: string): Promise<ShareLinkView[]> {
    const links = await this.db
      .selectFrom("share_links")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .orderBy("created_at")
      .execute();
    const guests = await this.db
      .selectFrom("guest_sessions")
      .innerJoin("share_links", "share_links.id", "guest_sessions.share_id")
      .select(["guest_sessions.share_id", "guest_sessions.name"])
      .where("share_links.workspace_id", "=", workspaceId)
      .orderBy("guest_sessions.created_at")
      .execute();
    const open = new Map<string, number>();
    for (const { principal, open: n } of this.connections.holders()) {
      if (principal.kind === "guest") open.set(principal.shareId, (open.get(principal.shareId) ?? 0) + n);
    }
    return links.map((l) => ({
      id: l.id,
      role: l.role,
      createdAt: l.created_at,
      expiresAt: l.expires_at,
      revokedAt: l.revoked_at,
      joined: guests.filter((g) => g.share_id === l.id).map((g) => g.name),
      openConnections: open.get(l.id) ?? 0,
    }));
  }

  /** The workspace a link belongs to, or null when there is no such link. */
  async workspaceOf(shareId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("share_links")
      .select("workspace_id")
      .where("id", "=", shareId)
      .executeTakeFirst();
    return row?.workspace_id ?? null;
  }

  /**
   * Marks the link revoked (kept, never deleted) and ends its guests' connections at once. Returns
   * the guests whose access this ended (their sessions held; none when it was revoked already).
   */
  async revoke(shareId: string): Promise<Guest[]> {
    const now = new Date().toISOString();
    const held = await this.db
      .selectFrom("guest_sessions")
      .innerJoin("share_links", "share_links.id", "guest_sessions.share_id")
      .select([
        "guest_sessions.id_hash",
        "guest_sessions.name",
        "share_links.workspace_id",
        "share_links.role",
      ])
      .where("share_links.id", "=", shareId)
      .where("guest_sessions.expires_at", ">", now)
      .execute();
    const { numUpdatedRows } = await this.db
      .updateTable("share_links")
      .set({ revoked_at: now })
      .where("id", "=", shareId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    this.endGuests((g) => g.shareId === shareId, AccessCloseCode.LinkRevoked);
    if (numUpdatedRows === 0n) return [];
    return held.map((row) => ({
      kind: "guest",
      sessionId: row.id_hash,
      shareId,
      workspaceId: row.workspace_id,
      name: row.name,
      role: row.role,
    }));
  }

  /** Revokes every link of a workspace (before it is deleted). */
  async revokeWorkspace(workspaceId: string): Promise<void> {
    await this.db
      .updateTable("share_links")
      .set({ revoked_at: new Date().toISOString() })
      .where("workspace_id", "=", workspaceId)
      .where("revoked_at", "is", null)
      .execute();
    this.endGuests((g) => g.workspaceId === workspaceId, AccessCloseCode.LinkRevoked);
  }

  /**
   * A new guest session for `secret` under `name`: the cookie to set, or null when the link is
   * unknown, revoked, expired or its workspace is gone (one answer for all of them). Throws
   * `NameTakenError` when the name looks like that of a guest whose session on the workspace holds.
   */
  async join(secret: string, name: string): Promise<{ cookie: string; maxAgeSeconds: number } | null> {
    const now = new Date();
    const link = await this.open(secret, now);
    if (!link) return null;
    const present = lookalikeOf(name, await this.guestNames(link.workspace_id, now));
    if (present !== undefined) throw new NameTakenError(name, present);
    const longest = now.getTime() + GUEST_SESSION_DAYS * 86_400_000;
    const expires = Math.min(longest, link.expires_at ? Date.parse(link.expires_at) : longest);
    const cookie = newSecret();
    await this.db
      .insertInto("guest_sessions")
      .values({
        id_hash: hashSecret(cookie),
        share_id: link.id,
        name,
        created_at: now.toISOString(),
        expires_at: new Date(expires).toISOString(),
      })
      .execute();
    return { cookie, maxAgeSeconds: Math.max(1, Math.floor((expires - now.getTime()) / 1000)) };
  }

  /** What a link opens (for its join page), or null when it would not let anyone in. */
  async preview(secret: string): Promise<{ workspace: string; role: GuestRole } | null> {
    const link = await this.open(secret, new Date());
    return link ? { workspace: link.workspace, role: link.role } : null;
  }

  /** The link `secret` belongs to while it lets people in: not revoked, not expired, its workspace there. */
  private open(secret: string, now: Date) {
    return this.usable()
      .select([
        "share_links.id",
        "share_links.expires_at",
        "share_links.role",
        "share_links.workspace_id",
        "workspaces.name as workspace",
      ])
      .where("share_links.secret_hash", "=", hashSecret(secret))
      .where((eb) =>
        eb.or([
          eb("share_links.expires_at", "is", null),
          eb("share_links.expires_at", ">", now.toISOString()),
        ]),
      )
      .executeTakeFirst();
  }

  /** The names of the guests whose sessions on the workspace still hold, through any of its links. */
  private async guestNames(workspaceId: string, now: Date): Promise<string[]> {
    const rows = await this.usable()
      .innerJoin("guest_sessions", "guest_sessions.share_id", "share_links.id")
      .select("guest_sessions.name")
      .where("share_links.workspace_id", "=", workspaceId)
      .where("guest_sessions.expires_at", ">", now.toISOString())
      .execute();
    return rows.map((r) => r.name);
  }

  /** The guest a cookie hash belongs to, while its session, link and workspace all still hold. */
  async guest(sessionId: string): Promise<Guest | null> {
    const now = new Date().toISOString();
    const row = await this.usable()
      .innerJoin("guest_sessions", "guest_sessions.share_id", "share_links.id")
      .select(["share_links.id", "share_links.workspace_id", "share_links.role", "guest_sessions.name"])
      .where("guest_sessions.id_hash", "=", sessionId)
      .where("guest_sessions.expires_at", ">", now)
      .where((eb) =>
        eb.or([eb("share_links.expires_at", "is", null), eb("share_links.expires_at", ">", now)]),
      )
      .executeTakeFirst();
    if (!row) return null;
    return {
      kind: "guest",
      sessionId,
      shareId: row.id,
      workspaceId: row.workspace_id,
      name: row.name,
      role: row.role,
    };
  }

  /**
   * Ends the connections of guests whose link was revoked (elsewhere), expired, or whose session
   * or workspace is gone; returns how many guests that was. Run by the sweeper: expiry has no event.
   */
  async endLostGuests(): Promise<number> {
    const held = this.connections
      .holders()
      .flatMap(({ principal }) => (principal.kind === "guest" ? [principal] : []));
    if (held.length === 0) return 0;
    const reasons = await this.endReasons(held.map((g) => g.sessionId));
    let lost = 0;
    for (const guest of held) {
      const code = reasons.get(guest.sessionId);
      if (code === null) continue;
      // A session that is gone altogether (undefined) was logged out.
      this.connections.end(guest, code ?? AccessCloseCode.LoggedOut);
      lost++;
    }
    return lost;
  }

  /**
   * Why a guest session no longer gives access (its link revoked or expired, its workspace gone),
   * so the guest's page can say so; null when the session is not a guest's or still holds.
   */
  async whyEnded(sessionId: string): Promise<AccessCloseCode | null> {
    return (await this.endReasons([sessionId])).get(sessionId) ?? null;
  }

  /** For each guest session found: why it ended, or null while it holds. */
  private async endReasons(sessionIds: string[]): Promise<Map<string, AccessCloseCode | null>> {
    const now = new Date().toISOString();
    const rows = await this.db
      .selectFrom("guest_sessions")
      .innerJoin("share_links", "share_links.id", "guest_sessions.share_id")
      .leftJoin("workspaces", "workspaces.id", "share_links.workspace_id")
      .select([
        "guest_sessions.id_hash",
        "guest_sessions.expires_at as session_expires",
        "share_links.expires_at",
        "share_links.revoked_at",
        "workspaces.id as workspace",
      ])
      .where("guest_sessions.id_hash", "in", sessionIds)
      .execute();
    return new Map(
      rows.map((row) => {
        const code =
          row.revoked_at !== null
            ? AccessCloseCode.LinkRevoked
            : row.expires_at !== null && row.expires_at <= now
              ? AccessCloseCode.LinkExpired
              : row.workspace === null
                ? AccessCloseCode.NoWorkspace
                : row.session_expires <= now
                  ? AccessCloseCode.LoggedOut
                  : null;
        return [row.id_hash, code];
      }),
    );
  }

  /** A guest left: their cookie stops working now (the row stays, so the link still lists them). */
  async endGuestSession(sessionId: string): Promise<void> {
    await this.db
      .updateTable("guest_sessions")
      .set({ expires_at: new Date().toISOString() })
      .where("id_hash", "=", sessionId)
      .execute();
  }

  /**
   * Deletes guest sessions a month after they ended (their links stay): until then an ended
   * session lets no one in, but its link still lists who joined and its page can say why it ended.
   */
  async purgeExpired(): Promise<void> {
    const monthAgo = new Date(Date.now() - ENDED_GUESTS_KEPT_DAYS * 86_400_000).toISOString();
    await this.db.deleteFrom("guest_sessions").where("expires_at", "<=", monthAgo).execute();
  }

  /** Links not revoked whose workspace still exists. */
  private usable() {
    return this.db
      .selectFrom("share_links")
      .innerJoin("workspaces", "workspaces.id", "share_links.workspace_id")
      .where("share_links.revoked_at", "is", null);
  }

  private endGuests(match: (guest: Guest) => boolean, code: AccessCloseCode): void {
    for (const { principal } of this.connections.holders()) {
      if (principal.kind === "guest" && match(principal)) this.connections.end(principal, code);
    }
  }
}
