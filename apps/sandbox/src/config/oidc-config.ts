import { z } from "zod";

/** Signing in with an OpenID provider (CODER_OIDC_*), when configured. */
export interface OidcConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** Lower-cased e-mail domains allowed to sign in; empty: any domain. */
  allowedDomains: readonly string[];
  /** Lower-cased addresses that become admins at their first sign-in. */
  adminEmails: readonly string[];
  /** The provider as the login page's button names it ("Sign in with …"). */
  name: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Comma-separated, trimmed, lower-cased, empty entries dropped. */
const lowerList = (entry: z.ZodType<string, string>) =>
  z
    .string()
    .default("")
    .transform((list) =>
      list
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(entry));

const text = z.string().trim().min(1).optional();

/** The variables, spread into config.ts's schema. */
export const oidcEnv = {
  CODER_OIDC_ISSUER: z
    .string()
    .refine((issuer) => {
      const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
      // Plain http only for a provider on this machine (a trial, the tests): tokens travel in it.
      return url?.protocol === "https:" || (url?.protocol === "http:" && LOOPBACK.has(url.hostname));
    }, "must be the provider's https:// issuer URL (http:// only on loopback)")
    .optional(),
  CODER_OIDC_CLIENT_ID: text,
  CODER_OIDC_CLIENT_SECRET: text,
  CODER_OIDC_ALLOWED_DOMAINS: lowerList(
    z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "is not an e-mail domain"),
  ),
  CODER_OIDC_ADMIN_EMAILS: lowerList(z.email("is not an e-mail address")),
  CODER_OIDC_NAME: text,
};

type OidcEnv = z.output<z.ZodObject<typeof oidcEnv>>;

const REQUIRED = ["CODER_OIDC_ISSUER", "CODER_OIDC_CLIENT_ID", "CODER_OIDC_CLIENT_SECRET"] as const;

/** A partial configuration stops the start, naming each variable still missing. */
export function requireCompleteOidc(env: OidcEnv, ctx: z.RefinementCtx): void {
  const given = REQUIRED.filter((name) => env[name] !== undefined);
  if (given.length === 0 || given.length === REQUIRED.length) return;
  for (const name of REQUIRED.filter((n) => env[n] === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [name],
      message: `is needed to sign in with OIDC (${given.join(", ")} is set)`,
    });
  }
}

export function oidcConfig(env: OidcEnv): OidcConfig | undefined {
  const {
    CODER_OIDC_ISSUER: issuer,
    CODER_OIDC_CLIENT_ID: clientId,
    CODER_OIDC_CLIENT_SECRET: clientSecret,
  } = env;
  if (!issuer || !clientId || !clientSecret) return undefined;
  const url = new URL(issuer);
  return {
    issuer: url,
    clientId,
    clientSecret,
    allowedDomains: env.CODER_OIDC_ALLOWED_DOMAINS,
    adminEmails: env.CODER_OIDC_ADMIN_EMAILS,
    name: env.CODER_OIDC_NAME ?? url.host,
  };
}
