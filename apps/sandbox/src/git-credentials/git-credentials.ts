import type { Db } from "../db/database";
import { ServiceError } from "../errors/service-error";
import { parseCredentialHost } from "./credential-host";
import { openToken, sealToken } from "./sealed-token";

/** What a person sees of a stored credential: never the token. */
export interface CredentialSummary {
  host: string;
  username: string;
  created: string;
}

/** A stored credential as its owner lists it, with the workspaces they bound it to. */
export interface CredentialListing extends CredentialSummary {
  boundTo: { id: string; name: string }[];
}

/** What git gets for one host. */
export interface GitLogin {
  username: string;
  password: string;
}

/** The user name git sends with a token when the person gave none (GitHub, GitLab and Gitea accept it). */
export const DEFAULT_TOKEN_USERNAME = "x-access-token";

/** Authenticated with the sealed token, so a token opens only in the row it was sealed for. */
const sealContext = (userId: string, host: string) => `git-credential\n${userId}\n${host}`;

/**
 * Each person's git tokens per host, sealed at rest, and the hosts a workspace's owner bound for
 * git run in its terminals and by its agent. Tokens leave only through `loginFor`, to git.
 */
export class GitCredentials {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
  ) {}

  async set(
    userId: string,
    input: { host: string; username?: string | undefined; token: string },
  ): Promise<CredentialSummary> {
    const host = parseCredentialHost(input.host);
    const username = input.username?.trim() || DEFAULT_TOKEN_USERNAME;
    const created = new Date().toISOString();
    const sealed = sealToken(this.key, input.token, sealContext(userId, host));
    await this.db
      .insertInto("git_credentials")
      .values({ user_id: userId, host, username, sealed_token: sealed, created_at: created })
      .onConflict((c) =>
        c.columns(["user_id", "host"]).doUpdateSet({ username, sealed_token: sealed, created_at: created }),
      )
      .execute();
    return { host, username, created };
  }

  async list(userId: string): Promise<CredentialListing[]> {
    const rows = await this.db
      .selectFrom("git_credentials")
      .select(["host", "username", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("host")
      .execute();
    // Only bindings that still give git the token: the person still owns the workspace.
    const bindings = await this.db
      .selectFrom("git_credential_bindings as b")
      .innerJoin("workspaces as w", "w.id", "b.workspace_id")
      .select(["b.host", "w.id", "w.name"])
      .where("b.user_id", "=", userId)
      .where("w.owner_id", "=", userId)
      .orderBy("w.name")
      .execute();
    return rows.map((row) => ({
      host: row.host,
      username: row.username,
      created: row.created_at,
      boundTo: bindings.filter((b) => b.host === row.host).map((b) => ({ id: b.id, name: b.name })),
    }));
  }

  /** Forgets the person's token for the host (and so every binding of it). */
  async delete(userId: string, hostText: string): Promise<void> {
    const host = parseCredentialHost(hostText);
    const deleted = await this.db
      .deleteFrom("git_credentials")
      .where("user_id", "=", userId)
      .where("host", "=", host)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw new ServiceError("not_found", `you keep no token for ${host}`);
    await this.db
      .deleteFrom("git_credential_bindings")
      .where("user_id", "=", userId)
      .where("host", "=", host)
      .execute();
  }

  /** Lets git in the workspace's terminals and agent use the owner's token for the host. */
  async bind(workspaceId: string, ownerId: string, hostText: string): Promise<{ host: string }> {
    const host = parseCredentialHost(hostText);
    const workspace = await this.db
      .selectFrom("workspaces")
      .select("owner_id")
      .where("id", "=", workspaceId)
      .executeTakeFirst();
    if (workspace?.owner_id !== ownerId) {
      throw new ServiceError("forbidden", "only the workspace's owner binds their own tokens to it");
    }
    const stored = await this.db
      .selectFrom("git_credentials")
      .select("host")
      .where("user_id", "=", ownerId)
      .where("host", "=", host)
      .executeTakeFirst();
    if (!stored) throw new ServiceError("precondition", `store a token for ${host} first`);
    await this.db
      .insertInto("git_credential_bindings")
      .values({ workspace_id: workspaceId, host, user_id: ownerId, created_at: new Date().toISOString() })
      .onConflict((c) => c.columns(["workspace_id", "host"]).doUpdateSet({ user_id: ownerId }))
      .execute();
    return { host };
  }

  async unbind(workspaceId: string, hostText: string): Promise<void> {
    const host = parseCredentialHost(hostText);
    await this.db
      .deleteFrom("git_credential_bindings")
      .where("workspace_id", "=", workspaceId)
      .where("host", "=", host)
      .execute();
  }

  /** The hosts bound to a workspace. */
  async bindings(workspaceId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("git_credential_bindings")
      .select("host")
      .where("workspace_id", "=", workspaceId)
      .orderBy("host")
      .execute();
    return rows.map((row) => row.host);
  }

  /** The person's login for exactly this host (already in stored form), for git alone. */
  async loginFor(userId: string, host: string): Promise<GitLogin | undefined> {
    const row = await this.db
      .selectFrom("git_credentials")
      .select(["username", "sealed_token"])
      .where("user_id", "=", userId)
      .where("host", "=", host)
      .executeTakeFirst();
    if (!row) return undefined;
    const password = openToken(this.key, row.sealed_token, sealContext(userId, host));
    return password === undefined ? undefined : { username: row.username, password };
  }

  /** The owner's login for a host they bound to the workspace and still own it; otherwise nothing. */
  async boundLoginFor(workspaceId: string, host: string): Promise<GitLogin | undefined> {
    const binding = await this.db
      .selectFrom("git_credential_bindings as b")
      .innerJoin("workspaces as w", "w.id", "b.workspace_id")
      .select("b.user_id")
      .where("b.workspace_id", "=", workspaceId)
      .where("b.host", "=", host)
      .whereRef("w.owner_id", "=", "b.user_id")
      .executeTakeFirst();
    return binding ? this.loginFor(binding.user_id, host) : undefined;
  }
}
