import type { AgentName, ToolDefinition } from "@coder/protocol";
import type { Registry } from "@coder/tools";
import { AGENTS, SUBAGENT_EXCLUDED } from "../agents";
import type { AgentConfig } from "../config/agent-config";
import type { WorkspacePort } from "../workspace/workspace-port";
import { toolsConfig } from "./local-registry";

/**
 * The tools one agent is offered on one model: the workspace's list for that agent (from the
 * daemon), plus tools it borrows from another agent, plus the tools the service runs itself as
 * the service's settings offer them (the daemon does not know its keys and switches); minus what
 * those settings switch off and what sub-agents never get.
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
    if (local.get(def.id)?.facts.runsIn === "service") add(def);
  const settings = toolsConfig(config);
  const switchedOn = (id: string) => local.get(id)?.enabled?.(settings) ?? true;
  return list.filter((t) => switchedOn(t.id) && !(profile.subagent && SUBAGENT_EXCLUDED.has(t.id)));
}
