import { type AuditClient, type AuditEntry, actorOf } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";
import type { Principal } from "../auth/principal";

/** Records what the caller of a procedure did, with the request's address and user agent. */
export function recordAct(
  ctx: { audit: AuditLog; client: AuditClient; principal: Principal },
  act: Omit<AuditEntry, "actor" | "client">,
): void {
  ctx.audit.record({ ...act, actor: actorOf(ctx.principal), client: ctx.client });
}
