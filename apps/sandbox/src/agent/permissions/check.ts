import type { PermissionRequest } from "@coder/tools";
import { alwaysPattern, splitCommand } from "./bash";
import { isOutsideWorkspace, normalizePath } from "./paths";
import { type Action, evaluate, type Rule } from "./rules";

/** Permissions whose patterns are paths: judged relative to the workspace, refused outside it. */
const PATH_PERMISSIONS = new Set(["read", "edit", "list", "glob", "grep", "lsp"]);

export interface Decision {
  action: Action;
  /** For `ask`: what an "always" reply would allow for the rest of the session. */
  always: string[];
  /** For `deny`: why, for the model. */
  reason?: string;
}

/** The subjects one request is judged by: each simple command of a bash line, paths normalised. */
export function subjectsOf(request: PermissionRequest): string[] {
  if (request.permission === "bash") return request.patterns.flatMap(splitCommand);
  if (PATH_PERMISSIONS.has(request.permission)) {
    return request.patterns.map((p) => (p === "*" ? p : normalizePath(p)));
  }
  return request.patterns.length > 0 ? request.patterns : ["*"];
}

/**
 * Decides a request against rules (defaults, configuration, then this session's "always" grants;
 * the last match wins). Any denied subject denies the call; any that asks makes it ask.
 */
export function decide(rules: readonly Rule[], request: PermissionRequest): Decision {
  const subjects = subjectsOf(request);
  if (PATH_PERMISSIONS.has(request.permission)) {
    const outside = subjects.find((s) => s !== "*" && isOutsideWorkspace(s));
    if (outside) return { action: "deny", always: [], reason: `${outside} is outside the workspace` };
  }
  const actions = subjects.map((subject) => ({
    subject,
    action: evaluate(rules, request.permission, subject),
  }));
  const denied = actions.find((a) => a.action === "deny");
  if (denied) {
    const what = denied.subject === "*" ? request.permission : `${request.permission} ${denied.subject}`;
    return { action: "deny", always: [], reason: `${what} is not permitted for this agent` };
  }
  const asking = actions.filter((a) => a.action === "ask");
  if (asking.length === 0) return { action: "allow", always: [] };
  const always = asking.map((a) => alwaysFor(request.permission, a.subject));
  return { action: "ask", always: [...new Set(always)] };
}

/**
 * How far an "always" reply reaches: a command's program (and sub-command), a fetched site, and
 * for everything else the permission as a whole for the rest of the session.
 */
function alwaysFor(permission: string, subject: string): string {
  if (permission === "bash") return alwaysPattern(subject);
  if (permission === "webfetch" && URL.canParse(subject)) return `${new URL(subject).origin}/*`;
  return "*";
}

/** The rules an "always" reply adds to the session. */
export function grantsFor(permission: string, always: readonly string[]): Rule[] {
  return always.map((pattern) => ({ permission, pattern, action: "allow" as const }));
}
