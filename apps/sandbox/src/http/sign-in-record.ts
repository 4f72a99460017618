import type { IncomingMessage } from "node:http";
import type { AuditAction } from "@coder/protocol";
import { ANONYMOUS, actorOf, clientOf } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";
import type { AuthService } from "../auth/auth-service";

/** What the sign-in routes record with: the trail, and the sessions to look a new one up in. */
export interface SignInRecordDeps {
  auth: AuthService;
  audit: AuditLog;
}

/**
 * Records who a new session signs in, looked up as every later request will (a user, or a guest
 * of a share link with the workspace it opens). `via` says how: "admin token", "password", "oidc"….
 */
export async function recordSignIn(
  deps: SignInRecordDeps,
  req: IncomingMessage,
  cookie: string,
  action: Extract<AuditAction, "auth.signed_in" | "share.joined" | "user.joined" | "user.password_reset">,
  via: string,
): Promise<void> {
  const who = await deps.auth.session(cookie);
  if (!who) return;
  deps.audit.record({
    actor: actorOf(who),
    action,
    target: who.kind === "guest" ? who.shareId : null,
    workspaceId: who.kind === "guest" ? who.workspaceId : null,
    client: clientOf(req),
    detail: { via },
  });
}

/**
 * Records a refused sign-in by someone not signed in. `target` is who they tried to be (an e-mail
 * address) when they said; `detail` never holds what they tried it with.
 */
export function recordSignInFailed(
  audit: AuditLog,
  req: IncomingMessage,
  via: string,
  more: { target?: string; reason?: string } = {},
): void {
  audit.record({
    actor: ANONYMOUS,
    action: "auth.sign_in_failed",
    target: more.target ?? null,
    client: clientOf(req),
    detail: { via, ...(more.reason ? { reason: more.reason } : {}) },
  });
}
