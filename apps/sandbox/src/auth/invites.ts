import { randomBytes } from "node:crypto";
import type { Db } from "../db/database";
import type { InviteTable } from "../db/schema";
import { ServiceError } from "../errors/service-error";
import { Accounts, normalEmail } from "./accounts";
import { hashPassword } from "./password-hash";
import { weakPasswordReason } from "./password-rules";
import { storePasswordHash } from "./passwords";
import type { SiteRole } from "./principal";
import { hashSecret, newSecret } from "./secrets";

/** How long an invitation or a reset link can be used. */
export const INVITE_DAYS = 7;

export type InviteKind = InviteTable["kind"];

/** A link just made: the secret goes into `/invite/<secret>` and is never stored. */
export interface InviteLink {
  secret: string;
  expiresAt: string;
}

/** What the page of an open link shows. */
export interface InvitePreview {
  email: string;
  kind: InviteKind;
}

/** What a used link did: the account it made or reset, to sign in. */
export interface AcceptedInvite {
  userId: string;
  kind: InviteKind;
}

/**
 * Invitations and reset links: an administrator makes a single-use link (256 random bits, stored
 * as its sha256) that lets one person set a password within `INVITE_DAYS` — a new account's
 * (invite: with a display name, in the site role invited) or an existing account's (reset: which
 * also ends that account's sessions). A link is used up in the same transaction that writes the
 * password, so two uses racing cannot both succeed.
 */
export class Invites {
  constructor(private readonly db: Db) {}

  /** A link for a new account at `email`; an address that already has an account is a conflict. */
  async invite(input: { email: string; role: SiteRole; createdBy: string }): Promise<InviteLink> {
    const email = normalEmail(input.email);
    if (await new Accounts(this.db).byEmail(email)) {
      throw new ServiceError(
        "conflict",
        `there is already an account for ${email}; make a reset link for it instead`,
      );
    }
    return this.make({ email, role: input.role, kind: "invite", user_id: null, created_by: input.createdBy });
  }

  /** A link that sets a new password for the account `userId` (which needs an e-mail address to sign in with). */
  async reset(input: { userId: string; createdBy: string }): Promise<InviteLink> {
    const user = await new Accounts(this.db).byId(input.userId);
    if (!user) throw new ServiceError("not_found", "there is no such account");
    if (user.email === null) {
      throw new ServiceError(
        "precondition",
        "that account has no e-mail address to sign in with, so a password would not help it; it signs in with the admin token",
      );
    }
    return this.make({
      email: user.email,
      role: user.siteRole,
      kind: "reset",
      user_id: user.id,
      created_by: input.createdBy,
    });
  }

  /** What an open link is for; null when it is unknown, used or expired (one answer for all three). */
  async preview(secret: string): Promise<InvitePreview | null> {
    const open = await this.open(secret);
    return open ? { email: open.email, kind: open.kind } : null;
  }

  /**
   * Uses the link: makes the account (invite) or replaces its password (reset). Null when the link
   * is unknown, used or expired; a weak password or a suspended account is refused and leaves the
   * link as it was, to try again.
   */
  async accept(
    secret: string,
    input: { displayName: string | undefined; password: string },
  ): Promise<AcceptedInvite | null> {
    const link = await this.open(secret);
    if (!link) return null;
    const { displayName } = input;
    if (link.kind === "invite" && !displayName) throw new ServiceError("bad_request", "enter your name");
    const weak = weakPasswordReason(input.password, link.email);
    if (weak) throw new ServiceError("bad_request", weak);
    const hash = await hashPassword(input.password);
    return this.db.transaction().execute(async (tx) => {
      const used = await tx
        .updateTable("invites")
        .set({ used_at: new Date().toISOString() })
        .where("id", "=", link.id)
        .where("used_at", "is", null)
        .where("expires_at", ">", new Date().toISOString())
        .executeTakeFirst();
      // Another use of the same link came first.
      if (used.numUpdatedRows === 0n) return null;
      let userId: string;
      if (link.kind === "invite" && displayName) {
        const accounts = new Accounts(tx);
        userId = (await accounts.create({ email: link.email, displayName, siteRole: link.role })).id;
      } else {
        const user = link.user_id ? await new Accounts(tx).byId(link.user_id) : null;
        if (!user) return null;
        if (user.suspendedAt !== null) {
          throw new ServiceError(
            "forbidden",
            "this account is suspended; ask an administrator to lift the suspension first",
          );
        }
        userId = user.id;
        // Whoever was signed in with the old password is out (the sweeper closes their connections).
        await tx.deleteFrom("login_sessions").where("user_id", "=", userId).execute();
      }
      await storePasswordHash(tx, userId, hash);
      return { userId, kind: link.kind };
    });
  }

  /** Forgets links that expired over a week ago (used ones too: they are of no further use). */
  async purgeExpired(): Promise<void> {
    const cutoff = new Date(Date.now() - INVITE_DAYS * 86_400_000).toISOString();
    await this.db.deleteFrom("invites").where("expires_at", "<=", cutoff).execute();
  }

  private async open(secret: string): Promise<InviteTable | null> {
    if (!secret) return null;
    const row = await this.db
      .selectFrom("invites")
      .selectAll()
      .where("secret_hash", "=", hashSecret(secret))
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date().toISOString())
      .executeTakeFirst();
    return row ?? null;
  }

  private async make(row: Omit<InviteTable, "id" | "secret_hash" | "created_at" | "expires_at" | "used_at">) {
    const secret = newSecret();
    const now = Date.now();
    const expiresAt = new Date(now + INVITE_DAYS * 86_400_000).toISOString();
    await this.db
      .insertInto("invites")
      .values({
        ...row,
        id: randomBytes(9).toString("base64url"),
        secret_hash: hashSecret(secret),
        created_at: new Date(now).toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    return { secret, expiresAt };
  }
}
