import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuditLog } from "../audit/audit-log";
import type { AuthService } from "../auth/auth-service";
import { auditRoutes } from "./audit-routes";
import { authRoutes } from "./auth-routes";
import type { FailureBackoff } from "./failure-backoff";
import type { HttpRoute } from "./http-routes";
import { type ImportRouteDeps, importRoutes } from "./import-routes";
import { type OidcRouteDeps, oidcRoutes } from "./oidc-routes";
import { passwordRoutes } from "./password-routes";

/** Paths the service keeps for itself: one the table does not name is 404, never a page of the UI. */
export const SERVICE_PATHS = ["/api/", "/auth/"] as const;

export interface HttpRouteTableDeps extends ImportRouteDeps, OidcRouteDeps {
  auth: AuthService;
  audit: AuditLog;
  secureCookies: boolean;
  /** Holds back wrong share-link and invitation-link guesses (failure-backoff.ts). */
  shareFailures: FailureBackoff;
  /** Whether the service sheds new work now (busy-shedding.ts); /healthz says so. */
  busy(): boolean;
  /** The tRPC handler for `/api/trpc/<procedure>`. */
  trpc(req: IncomingMessage, res: ServerResponse): void;
}

/** Every plain HTTP route the service serves; everything else is the web UI's (server.ts). */
export function httpRoutes(deps: HttpRouteTableDeps): HttpRoute[] {
  return [
    {
      method: "ANY",
      path: "/healthz",
      access: "anyone",
      // Answered even while busy: a probe learns the service lives, and that it sheds new work.
      handle: ({ res }) =>
        void res.writeHead(200, { "content-type": "text/plain" }).end(deps.busy() ? "busy" : "ok"),
    },
    // Each procedure declares the role it needs (trpc/init.ts).
    {
      method: "ANY",
      path: "/api/trpc/*procedure",
      access: "anyone",
      handle: ({ req, res }) => deps.trpc(req, res),
    },
    ...authRoutes(deps.auth, deps.secureCookies, deps.shareFailures, deps.audit),
    ...importRoutes(deps),
    ...auditRoutes(deps),
    ...oidcRoutes(deps),
    ...passwordRoutes({
      auth: deps.auth,
      audit: deps.audit,
      secureCookies: deps.secureCookies,
      secretGuesses: deps.shareFailures,
      peopleChanges: deps.peopleChanges,
    }),
  ];
}
