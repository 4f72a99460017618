import { matchWildcard } from "./wildcard";

export type Action = "allow" | "ask" | "deny";

/** One line of a ruleset: for `permission` (wildcards allowed) and a subject matching `pattern`. */
export interface Rule {
  permission: string;
  pattern: string;
  action: Action;
}

/**
 * Rules as written in configuration, per agent (`*` for every agent): a permission maps to an
 * action, or to patterns → actions in order (`{"git status*": "allow", "rm *": "ask"}`).
 */
export type RuleConfig = Record<string, Record<string, Action | Record<string, Action>>>;

/** The rules of `config` that apply to `agent`: those for every agent first, then its own. */
export function rulesFromConfig(config: RuleConfig, agent: string): Rule[] {
  const rules: Rule[] = [];
  for (const key of ["*", agent]) {
    for (const [permission, value] of Object.entries(config[key] ?? {})) {
      if (typeof value === "string") rules.push({ permission, pattern: "*", action: value });
      else for (const [pattern, action] of Object.entries(value)) rules.push({ permission, pattern, action });
    }
  }
  return rules;
}

/** The action for one subject: the last matching rule wins; no rule at all means ask. */
export function evaluate(rules: readonly Rule[], permission: string, subject: string): Action {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i] as Rule;
    if (matchWildcard(rule.permission, permission) && matchWildcard(rule.pattern, subject))
      return rule.action;
  }
  return "ask";
}

/**
 * The action for a subject that could be anything (a command that cannot be judged before it
 * runs): allow only when the rules allow every subject, deny when they deny every one, else ask.
 */
export function evaluateAnySubject(rules: readonly Rule[], permission: string): Action {
  const later = new Set<Action>();
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i] as Rule;
    if (!matchWildcard(rule.permission, permission)) continue;
    if (rule.pattern === "*") return [...later].every((a) => a === rule.action) ? rule.action : "ask";
    later.add(rule.action);
  }
  return "ask";
}
