import type { Db } from "../db/database";
import { hashSecret, newSecret } from "./secrets";

const FLOW_MINUTES = 10;
/** Anyone may start a flow: this bounds the rows a flood of starts can leave for 10 minutes. */
export const MAX_LIVE_FLOWS = 10_000;

/** What the callback of one sign-in must match: kept here, never in the browser. */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/**
 * Sign-ins with OIDC under way, in the database so a callback may reach another instance. Each is
 * keyed by the hash of a random cookie given to the browser that started it (so a callback from
 * any other browser finds nothing), lives 10 minutes and is taken once.
 */
export class OidcFlows {
  constructor(private readonly db: Db) {}

  /** Keeps a new flow; returns the cookie value that finds it again, or null when too many are live. */
  async begin(flow: OidcFlow): Promise<string | null> {
    const now = new Date();
    // Flows abandoned at the provider end here, on the next start of another.
    await this.db.deleteFrom("oidc_flows").where("expires_at", "<=", now.toISOString()).execute();
    const { live } = await this.db
      .selectFrom("oidc_flows")
      .select((eb) => eb.fn.countAll<number | string>().as("live"))
      .executeTakeFirstOrThrow();
    if (Number(live) >= MAX_LIVE_FLOWS) return null;
    const cookie = newSecret();
    await this.db
      .insertInto("oidc_flows")
      .values({
        id_hash: hashSecret(cookie),
        state: flow.state,
        nonce: flow.nonce,
        code_verifier: flow.codeVerifier,
        redirect_uri: flow.redirectUri,
        expires_at: new Date(now.getTime() + FLOW_MINUTES * 60_000).toISOString(),
      })
      .execute();
    return cookie;
  }

  /** The flow of this cookie, removed as it is read (single use); null when unknown or expired. */
  async take(cookie: string | undefined): Promise<OidcFlow | null> {
    if (!cookie) return null;
    const row = await this.db
      .deleteFrom("oidc_flows")
      .where("id_hash", "=", hashSecret(cookie))
      .returningAll()
      .executeTakeFirst();
    if (!row || row.expires_at <= new Date().toISOString()) return null;
    return {
      state: row.state,
      nonce: row.nonce,
      codeVerifier: row.code_verifier,
      redirectUri: row.redirect_uri,
    };
  }
}
