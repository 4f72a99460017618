import { setTimeout as sleep } from "node:timers/promises";
import * as oidc from "openid-client";
import type { OidcConfig } from "../config/oidc-config";
import type { User } from "./accounts";
import type { OidcFlows } from "./oidc-flows";
import type { OidcIdentities } from "./oidc-identities";
import { OidcRefusal } from "./oidc-refusal";

/** Discovery retries back off from 1 s to a minute while the provider is down. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;

/**
 * Signing in with an OpenID provider: authorization code with PKCE (S256), `state` and `nonce`,
 * through `openid-client`. The provider's metadata is discovered at start and again, backing off,
 * until it answers: the service starts meanwhile, and the login page says the way is unavailable.
 */
export class OidcSignIn {
  private configuration: oidc.Configuration | undefined;
  private readonly stopping = new AbortController();
  private discovering: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: OidcConfig,
    private readonly flows: OidcFlows,
    private readonly identities: OidcIdentities,
    private readonly log: (line: string) => void,
  ) {}

  /** The button's label. */
  get name(): string {
    return this.config.name;
  }

  /** The provider's metadata has been read: sign-ins can start. */
  get available(): boolean {
    return this.configuration !== undefined;
  }

  /** Starts discovering in the background; resolves at once. */
  start(): void {
    this.discovering = this.discover();
  }

  /** Resolves once discovery succeeded (or the service stops): for callers that must wait. */
  async ready(): Promise<void> {
    await this.discovering;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.discovering;
  }

  private async discover(): Promise<void> {
    const { issuer, clientId, clientSecret } = this.config;
    for (let wait = FIRST_RETRY_MS; !this.stopping.signal.aborted; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
      try {
        this.configuration = await oidc.discovery(
          issuer,
          clientId,
          undefined,
          oidc.ClientSecretPost(clientSecret),
          {
            // Plain http is accepted only for a loopback issuer (oidc-config.ts).
            ...(issuer.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : {}),
            timeout: 10,
          },
        );
        this.log(`oidc: signing in with ${this.config.name} (${issuer.href}) is available`);
        return;
      } catch (err) {
        this.log(
          `oidc: ${issuer.href} did not answer discovery (${(err as Error).message}); retrying in ${wait / 1000} s`,
        );
        await sleep(wait, undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    }
  }

  /**
   * A new sign-in: where to send the browser, and the cookie that binds the flow to it.
   * `redirectUri` is this service's callback as the provider will send the browser back to it.
   */
  async begin(redirectUri: string): Promise<{ location: string; flowCookie: string }> {
    const configuration = this.configuration;
    if (!configuration) throw new OidcRefusal("unavailable", "discovery has not succeeded yet");
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier, redirectUri };
    const flowCookie = await this.flows.begin(flow);
    if (!flowCookie) throw new OidcRefusal("unavailable", "too many sign-ins under way (a flood of starts?)");
    const location = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      response_type: "code",
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      state: flow.state,
      nonce: flow.nonce,
    });
    return { location: location.href, flowCookie };
  }

  /**
   * The provider sent the browser back with `query`: checks the flow this browser started (its
   * state), exchanges the code with the PKCE verifier, verifies the id token and its nonce, then
   * requires a verified address of an allowed domain. Returns the person's account.
   */
  async finish(flowCookie: string | undefined, query: URLSearchParams): Promise<User> {
    const configuration = this.configuration;
    if (!configuration) throw new OidcRefusal("unavailable", "discovery has not succeeded yet");
    const flow = await this.flows.take(flowCookie);
    if (!flow) throw new OidcRefusal("expired", "no flow of this browser (missing, used or expired)");
    const callback = new URL(flow.redirectUri);
    callback.search = query.toString();
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error("the token response had no id token");
      claims = { ...idToken };
      // Many providers put the address (or whether it is verified) only in the userinfo answer.
      const incomplete = claims.email === undefined || claims.email_verified === undefined;
      if (incomplete && configuration.serverMetadata().userinfo_endpoint) {
        claims = {
          ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)),
          ...idToken,
        };
      }
    } catch (err) {
      const reason = query.has("state") && query.get("state") !== flow.state ? "expired" : "provider";
      throw new OidcRefusal(reason, errorSummary(err));
    }
    return this.identities.signIn(this.person(claims));
  }

  /** The issuer identifier as the provider states it (identities are linked under it). */
  private issuerId(): string {
    return this.configuration?.serverMetadata().issuer ?? this.config.issuer.href;
  }

  private person(claims: Record<string, unknown>) {
    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    const subject = String(claims.sub);
    if (!email || claims.email_verified !== true) throw new OidcRefusal("unverified", `subject ${subject}`);
    const domain = email.slice(email.lastIndexOf("@") + 1);
    const { allowedDomains } = this.config;
    if (allowedDomains.length > 0 && !allowedDomains.includes(domain))
      throw new OidcRefusal("domain", `subject ${subject} of ${domain}`);
    return {
      issuer: this.issuerId(),
      subject,
      email,
      name: typeof claims.name === "string" ? claims.name : undefined,
    };
  }
}

/** What went wrong, for the log: the error's code and message, never a token (they are in neither). */
function errorSummary(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown; error?: unknown }).error ?? (err as { code?: unknown }).code;
  return code ? `${String(code)}: ${err.message}` : err.message;
}
