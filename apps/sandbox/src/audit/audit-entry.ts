import type { IncomingMessage } from "node:http";
import type { Principal } from "../auth/principal";

/**
 * What the audit trail records, one name per kind of act. A new act is one more name here and one
 * `record` call where it happens (audit-log.ts).
 */
export const AUDIT_ACTIONS = [
  "auth.signed_in",
  "auth.sign_in_failed",
  "auth.signed_out",
  "user.invited",
  "user.joined",
  "user.reset_link",
  "user.password_reset",
  "user.updated",
  "user.suspended",
  "user.unsuspended",
  "user.deleted",
  "workspace.created",
  "workspace.started",
  "workspace.stopped",
  "workspace.deleted",
  "workspace.imported",
  "workspace.exported",
  "workspace.transferred",
  "share.created",
  "share.revoked",
  "share.joined",
  "terminal.opened",
  "terminal.closed",
  "agent.turn",
  "agent.tool_call",
  "agent.approval",
  "git.committed",
  "git.pushed",
  "git.checked_out",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who did it: a user, a guest of a share link (`id` is the link's id), the agent acting for the
 * person who prompted it (`onBehalfOf`), or the service itself.
 */
export interface AuditActor {
  kind: "user" | "guest" | "agent" | "system";
  id: string | null;
  name: string;
  onBehalfOf?: string | null;
}

/** The actor a signed-in principal is. */
export function actorOf(principal: Principal): AuditActor {
  return principal.kind === "user"
    ? { kind: "user", id: principal.userId, name: principal.name }
    : { kind: "guest", id: principal.shareId, name: principal.name };
}

/** The agent working for `prompter` (its actor id stays theirs, so filtering by a person finds it too). */
export function agentActor(prompter: AuditActor): AuditActor {
  return { kind: "agent", id: prompter.id, name: `agent for ${prompter.name}`, onBehalfOf: prompter.id };
}

/** Someone not signed in (a failed sign-in), known only by the request's address. */
export const ANONYMOUS: AuditActor = { kind: "guest", id: null, name: "anonymous" };

/** The service itself (the retention purge, an idle stop). */
export const SYSTEM: AuditActor = { kind: "system", id: null, name: "service" };

/** Where a request came from. */
export interface AuditClient {
  address?: string | null;
  userAgent?: string | null;
}

/** The address and user agent of a request. */
export function clientOf(req: IncomingMessage): AuditClient {
  return { address: req.socket.remoteAddress ?? null, userAgent: req.headers["user-agent"] ?? null };
}

/** One act to record: passed to `record`, which redacts `detail` and never fails the act. */
export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** What it was on, besides the workspace: a share link id, a terminal's name, a tool. */
  target?: string | null;
  workspaceId?: string | null;
  client?: AuditClient;
  /** Facts worth keeping (a command, paths, an exit code); secrets are removed before storing. */
  detail?: Record<string, unknown>;
}

/** The operation a floor that may not import the log is given (context, dependencies). */
export type RecordAudit = (entry: AuditEntry) => void;
