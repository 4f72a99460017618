import type { AgentName, ToolDefinition } from "@coder/protocol";
import type { Registry } from "@coder/tools";
import { AGENTS, SUBAGENT_EXCLUDED } from "../agents";
import type { AgentConfig } from "../config/agent-config";
import type { WorkspacePort } from "../workspace/workspace-port";

/** Whether the deployment switched a tool on (the flags are the service's, not the container's). */
function enabled(id: string, config: AgentConfig): boolean {
  if (id === "webfetch") return config.webfetch;
  if (id === "websearch") return config.experimental.websearch && config.websearch.apiKey !== undefined;
  if (id === "batch") return config.experimental.batch_tool;
  return true;
}

/**
 * The tools one agent is offered on one model: the workspace's list for that agent (from the
 * daemon), plus tools it borrows from another agent, plus the service's flagged tools the daemon
 * does not know are on; minus what the deployment switched off and what sub-agents never get.
 */
export async function offeredTools(
  workspace: WorkspacePort,
  local: Registry,
  config: AgentConfig,
  agent: AgentName,
  model: string,
): Promise<ToolDefinition[]> {
  const profile = AGENTS[agent];
  const [own, lender] = await Promise.all([
    workspace.listTools({ agent, model }),
    profile.borrows ? workspace.listTools({ agent: profile.borrows.from, model }) : Promise.resolve([]),
  ]);
  const list = [...own];
  const add = (def: ToolDefinition) => {
    if (!list.some((t) => t.id === def.id)) list.push(def);
  };
  for (const def of lender) if (profile.borrows?.tools.includes(def.id)) add(def);
  for (const def of local.definitions({ agent, model }))
    if (def.id === "websearch" || def.id === "batch") add(def);
  return list.filter((t) => enabled(t.id, config) && !(profile.subagent && SUBAGENT_EXCLUDED.has(t.id)));
}
