import type { TRPCClient } from "@trpc/client";
import { Accounts } from "../auth/accounts";
import { AuthService } from "../auth/auth-service";
import { SESSION_COOKIE } from "../auth/http-auth";
import type { SiteRole } from "../auth/principal";
import { type DatabaseSettings, type Db, openDatabase } from "../db/database";
import type { AppRouter } from "../trpc/router";
import { trpcClient } from "./harness";

/** A person with an account on a test service, signed in. */
export interface TestUser {
  userId: string;
  name: string;
  email: string;
  /** The `Cookie` header value of their session. */
  cookie: string;
  api: TRPCClient<AppRouter>;
}

/**
 * Makes accounts on a running test service and signs them in, through its own database (another
 * connection, as another process would), the way a sign-in route would: `Accounts.create`, then
 * `AuthService.createSession`.
 */
export class TestUsers {
  private constructor(
    private readonly url: string,
    readonly db: Db,
  ) {}

  /** For the service at `url` on the database of `dataDir` (or `databaseUrl`). */
  static async open(place: { url: string } & DatabaseSettings): Promise<TestUsers> {
    const { url, dataDir, databaseUrl } = place;
    return new TestUsers(url, await openDatabase({ dataDir, databaseUrl }, () => undefined));
  }

  async create(name: string, siteRole: SiteRole = "member"): Promise<TestUser> {
    const email = `${name.toLowerCase()}@example.com`;
    const user = await new Accounts(this.db).create({ email, displayName: name, siteRole });
    return this.signIn(user.id, name, email);
  }

  /** A new session of an account that exists. */
  async signIn(userId: string, name: string, email: string): Promise<TestUser> {
    const { cookie: value } = await new AuthService(this.db).createSession(userId);
    const cookie = `${SESSION_COOKIE}=${value}`;
    return { userId, name, email, cookie, api: trpcClient(this.url, cookie) };
  }

  /** Suspends the account (as an admin would): its sessions stop signing anyone in. */
  async suspend(userId: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("id", "=", userId)
      .execute();
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}
