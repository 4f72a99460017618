import type { PermissionRequest } from "@coder/tools";
import { alwaysPattern } from "./always-pattern";
import { bashSubjects } from "./bash-subjects";
import { mayPush } from "./git-push";
import { isOutsideWorkspace, normalizePath } from "./paths";
import { type Action, evaluate, evaluateAnySubject, type Rule } from "./rules";

/** Permissions whose patterns are paths: judged relative to the workspace, refused outside it. */
const PATH_PERMISSIONS = new Set(["read", "edit", "list", "glob", "grep", "lsp"]);

export interface Decision {
  action: Action;
  /** For `ask`: what an "always" reply would allow for the rest of the session. */
  always: string[];
  /** For `deny`: why, for the model. */
  reason?: string;
}

/** One thing a request is judged by. */
interface Subject {
  /** What rules' patterns are matched against (or what is shown, for one that cannot be judged). */
  text: string;
  /** What an "always" reply to it allows; none for a subject that cannot be judged. */
  always?: string;
  /** Set when the subject could be anything: only rules that cover everything decide it. */
  unknown?: string;
  /** Not valid shell at all: asked about unless every command is refused. */
  unparsed?: boolean;
  /** The command without the variables set for it: refused when a rule refuses that. */
  program?: string;
  /** A git push (or what may be one): asked every time, never allowed "always". */
  push?: boolean;
}

/**
 * The subjects one request is judged by: each simple command of a bash line (and each part of
 * it that cannot be judged), paths normalised.
 */
async function subjectsOf(request: PermissionRequest): Promise<Subject[]> {
  if (request.permission === "bash") {
    const subjects = await Promise.all(request.patterns.map(bashSubjects));
    return subjects.flat().map((s) => {
      if (s.kind === "unknown") return { text: s.text, unknown: s.why, unparsed: s.unparsed };
      const program = s.words.slice(s.assignments).join(" ");
      if (mayPush(s.words.slice(s.assignments))) return { text: s.words.join(" "), program, push: true };
      const subject = { text: s.words.join(" "), always: alwaysPattern(s.words) };
      return s.assignments > 0 && program ? { ...subject, program } : subject;
    });
  }
  if (PATH_PERMISSIONS.has(request.permission)) {
    return request.patterns.map((p) => ({ text: p === "*" ? p : normalizePath(p), always: "*" }));
  }
  const patterns = request.patterns.length > 0 ? request.patterns : ["*"];
  return patterns.map((text) => ({ text, always: alwaysFor(request.permission, text) }));
}

/**
 * Decides a request against rules (defaults, configuration, then this session's "always" grants;
 * the last match wins). Any denied subject denies the call; any that asks makes it ask.
 */
export async function decide(rules: readonly Rule[], request: PermissionRequest): Promise<Decision> {
  const subjects = await subjectsOf(request);
  if (PATH_PERMISSIONS.has(request.permission)) {
    const outside = subjects.find((s) => s.text !== "*" && isOutsideWorkspace(s.text));
    if (outside) return { action: "deny", always: [], reason: `${outside.text} is outside the workspace` };
  }
  const actions = subjects.map((subject) => ({ subject, action: judge(rules, request.permission, subject) }));
  const denied = actions.find((a) => a.action === "deny");
  if (denied) {
    const what =
      denied.subject.text === "*" ? request.permission : `${request.permission} ${denied.subject.text}`;
    return { action: "deny", always: [], reason: `${what} is not permitted for this agent` };
  }
  const asking = actions.filter((a) => a.action === "ask");
  if (asking.length === 0) return { action: "allow", always: [] };
  const always = asking.flatMap((a) => (a.subject.always === undefined ? [] : [a.subject.always]));
  return { action: "ask", always: [...new Set(always)] };
}

function judge(rules: readonly Rule[], permission: string, subject: Subject): Action {
  if (subject.unknown) {
    const action = evaluateAnySubject(rules, permission);
    return subject.unparsed && action === "allow" ? "ask" : action;
  }
  // `X=1 rm -rf ~` is still `rm`: a rule refusing `rm *` refuses it.
  if (subject.program && evaluate(rules, permission, subject.program) === "deny") return "deny";
  const action = evaluate(rules, permission, subject.text);
  // A push may carry the owner's bound git credential out: a person says yes to each one.
  return subject.push && action === "allow" ? "ask" : action;
}

/** How far an "always" reply reaches: a fetched site, else the permission as a whole. */
function alwaysFor(permission: string, subject: string): string {
  if (permission === "webfetch" && URL.canParse(subject)) return `${new URL(subject).origin}/*`;
  return "*";
}

/** The rules an "always" reply adds to the session. */
export function grantsFor(permission: string, always: readonly string[]): Rule[] {
  return always.map((pattern) => ({ permission, pattern, action: "allow" as const }));
}
