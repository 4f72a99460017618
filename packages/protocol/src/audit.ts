/**
 * What the audit trail records, one name per kind of act: the service records them and the audit
 * page filters by them. A new act is one more name here and one `record` call where it happens
 * (apps/sandbox/src/audit/audit-log.ts).
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
  "preview.opened",
  "preview.visibility_changed",
  "git.credential_set",
  "git.credential_deleted",
  "git.credential_bound",
  "git.credential_unbound",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
