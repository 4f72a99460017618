import { stringifySetCookie } from "cookie";
import { readCookie, sessionCookie } from "../auth/http-auth";
import { OidcRefusal } from "../auth/oidc-refusal";
import type { OidcSignIn } from "../auth/oidc-sign-in";
import type { PeopleChanges } from "../auth/people-changes";
import { json } from "./http-answers";
import type { HttpRoute, RouteCall } from "./http-routes";
import { recordSignIn, recordSignInFailed, type SignInRecordDeps } from "./sign-in-record";

/** Binds a sign-in to the browser that started it; only the callback's path ever receives it. */
export const OIDC_FLOW_COOKIE = "coder_oidc_flow";
const CALLBACK_PATH = "/auth/oidc/callback";
const FLOW_COOKIE_ATTRIBUTES = { path: CALLBACK_PATH, httpOnly: true, sameSite: "lax" } as const;

export interface OidcRouteDeps extends SignInRecordDeps {
  /** Unset: OIDC is not configured. */
  oidc?: OidcSignIn;
  secureCookies: boolean;
  /** CODER_PUBLIC_URL: the origin the provider sends people back to, when set. */
  publicUrl?: string;
  /** A sign-in may be someone's first, which makes their account. */
  peopleChanges: Pick<PeopleChanges, "announce">;
  log(line: string): void;
}

/**
 * `GET /auth/methods` (which ways of signing in the login page offers), `GET /auth/oidc/start`
 * (to the provider) and `GET /auth/oidc/callback` (back from it: a session, or the login page with
 * the reason of the refusal as `?oidc=<reason>`, never a stack).
 */
export function oidcRoutes(deps: OidcRouteDeps): HttpRoute[] {
  const { oidc, secureCookies } = deps;
  const flowCookie = (value: string, maxAge: number) =>
    stringifySetCookie(OIDC_FLOW_COOKIE, value, { ...FLOW_COOKIE_ATTRIBUTES, maxAge, secure: secureCookies });
  const refused = (res: RouteCall["res"], err: unknown, headers: Record<string, string | string[]> = {}) => {
    if (!(err instanceof OidcRefusal)) throw err;
    deps.log(err.message);
    res.writeHead(303, { ...headers, location: `/login?oidc=${err.reason}` }).end();
  };
  return [
    {
      method: "GET",
      path: "/auth/methods",
      access: "anyone",
      handle: ({ res }) =>
        json(res, 200, { oidc: oidc ? { name: oidc.name, available: oidc.available } : null }),
    },
    {
      method: "GET",
      path: "/auth/oidc/start",
      access: "anyone",
      async handle({ req, res }) {
        try {
          if (!oidc) throw new OidcRefusal("unavailable", "OIDC is not configured");
          // The Host was checked against the allowed names before any route runs (server.ts).
          const origin = deps.publicUrl ?? `${secureCookies ? "https" : "http"}://${req.headers.host}`;
          const { location, flowCookie: value } = await oidc.begin(`${origin}${CALLBACK_PATH}`);
          res
            .writeHead(302, { location, "set-cookie": flowCookie(value, 600), "cache-control": "no-store" })
            .end();
        } catch (err) {
          refused(res, err);
        }
      },
    },
    {
      method: "GET",
      path: CALLBACK_PATH,
      access: "anyone",
      async handle({ req, res, url }) {
        // The flow is used up whatever happens: the browser forgets its cookie too.
        const forget = flowCookie("", 0);
        try {
          if (!oidc) throw new OidcRefusal("unavailable", "OIDC is not configured");
          const user = await oidc.finish(readCookie(req, OIDC_FLOW_COOKIE), url.searchParams);
          const session = await deps.auth.createSession(user.id);
          await recordSignIn(deps, req, session.cookie, "auth.signed_in", "oidc");
          deps.peopleChanges.announce();
          res
            .writeHead(303, {
              location: "/",
              "set-cookie": [forget, sessionCookie(session.cookie, session.maxAgeSeconds, secureCookies)],
            })
            .end();
        } catch (err) {
          refused(res, err, { "set-cookie": forget });
          // `refused` rethrew anything but a refusal: this is one. Its reason, never its detail.
          recordSignInFailed(deps.audit, req, "oidc", { reason: (err as OidcRefusal).reason });
        }
      },
    },
  ];
}
