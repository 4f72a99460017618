import { grantsFor } from "../permissions/check";
import { DEFAULT_RULES } from "../permissions/defaults";
import { type Rule, type RuleConfig, rulesFromConfig } from "../permissions/rules";
import type { SessionStore } from "../store/session-store";
import type { RootScope } from "./turn-state";

/** The rules an agent works under in a session: defaults, configuration, this session's grants. */
export function agentRules(config: RuleConfig, root: RootScope, agent: string): Rule[] {
  return [
    ...rulesFromConfig(DEFAULT_RULES, agent),
    ...rulesFromConfig(config, agent),
    ...root.grants.filter((g) => g.agent === agent).map((g) => g.rule),
  ];
}

/** Records an "always" reply: for this agent, for the rest of the (root) session. */
export async function addGrants(
  store: SessionStore,
  root: RootScope,
  agent: string,
  permission: string,
  patterns: readonly string[],
): Promise<void> {
  const rules = grantsFor(permission, patterns);
  root.grants.push(...rules.map((rule) => ({ agent, rule })));
  await store.addGrants(root.sessionId, agent, rules);
}
