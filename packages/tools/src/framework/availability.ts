import type { Tool, ToolsConfig } from "./types";

const READ_ONLY = ["read", "list", "glob", "grep", "skill", "lsp_*", "preview"];

/**
 * Which tools each built-in agent may call. `*` and `prefix_*` match names, `!name` removes.
 * `plan` only reads (it may still ask, fetch and leave plan mode); `explore` reads and keeps no todos.
 * An agent without an entry gets the `build` list.
 */
export const DEFAULT_AGENT_TOOLS: Readonly<Record<string, readonly string[]>> = {
  build: ["*", "!plan_exit"],
  plan: [...READ_ONLY, "todoread", "todowrite", "question", "webfetch", "websearch", "plan_exit"],
  explore: [...READ_ONLY, "webfetch", "websearch"],
};

export function matchesPattern(pattern: string, id: string): boolean {
  if (pattern === "*") return true;
  return pattern.endsWith("*") ? id.startsWith(pattern.slice(0, -1)) : pattern === id;
}

export function allowedBy(patterns: readonly string[], id: string): boolean {
  const denied = patterns.some((p) => p.startsWith("!") && matchesPattern(p.slice(1), id));
  return !denied && patterns.some((p) => !p.startsWith("!") && matchesPattern(p, id));
}

/** GPT-family models edit with `apply_patch` (the format they were trained on) instead of edit/write. */
export function prefersApplyPatch(model: string | undefined): boolean {
  return model !== undefined && /gpt|codex|(^|[^a-z0-9])o\d/i.test(model);
}

export interface DefinitionFilter {
  agent?: string;
  model?: string;
  /** A further allow-list (same patterns), e.g. from the session's settings. */
  allowed?: readonly string[];
}

export function isOffered(tool: Tool, filter: DefinitionFilter, config: ToolsConfig): boolean {
  if (tool.hidden) return false;
  if (tool.enabled && !tool.enabled(config)) return false;
  const applyPatch = prefersApplyPatch(filter.model);
  if (tool.id === "apply_patch" && !applyPatch) return false;
  if ((tool.id === "edit" || tool.id === "write") && applyPatch) return false;
  const agent = filter.agent ?? "build";
  const agentList = config.agents?.[agent] ?? DEFAULT_AGENT_TOOLS[agent] ?? DEFAULT_AGENT_TOOLS.build ?? [];
  if (!allowedBy(agentList, tool.id)) return false;
  return filter.allowed === undefined || allowedBy(filter.allowed, tool.id);
}
