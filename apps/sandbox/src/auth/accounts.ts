import { randomUUID } from "node:crypto";
import type { Db } from "../db/database";
import type { UserTable } from "../db/schema";
import { ServiceError } from "../errors/service-error";
import type { SiteRole } from "./principal";

/** A person with an account, as the service shows them (never a secret). */
export interface User {
  id: string;
  email: string | null;
  displayName: string;
  siteRole: SiteRole;
  suspendedAt: string | null;
  createdAt: string;
  lastSeenAt: string | null;
}

function userOf(row: UserTable): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    siteRole: row.site_role,
    suspendedAt: row.suspended_at,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
  };
}

/** E-mail addresses are compared and stored lower-cased, trimmed. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The service's people: one row per person, whichever way they sign in (the admin token for the
 * first admin, an invited password, OIDC). Sessions, workspaces and named shares point here.
 */
export class Accounts {
  constructor(private readonly db: Db) {}

  /** Makes an account; an e-mail address already in use is a conflict. */
  async create(input: { email: string | null; displayName: string; siteRole: SiteRole }): Promise<User> {
    const email = input.email === null ? null : normalEmail(input.email);
    if (email !== null && (await this.byEmail(email))) {
      throw new ServiceError("conflict", `there is already an account for ${email}`);
    }
    const row: UserTable = {
      id: randomUUID(),
      email,
      display_name: input.displayName,
      site_role: input.siteRole,
      suspended_at: null,
      limits: null,
      created_at: new Date().toISOString(),
      last_seen_at: null,
    };
    await this.db.insertInto("users").values(row).execute();
    return userOf(row);
  }

  async byId(id: string): Promise<User | null> {
    const row = await this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? userOf(row) : null;
  }

  async byEmail(email: string): Promise<User | null> {
    const row = await this.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", normalEmail(email))
      .executeTakeFirst();
    return row ? userOf(row) : null;
  }
}
