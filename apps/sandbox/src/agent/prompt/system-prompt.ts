import type { AgentName } from "@coder/protocol";
import { containerLayout } from "@coder/protocol";
import { AGENTS } from "../agents";
import environment from "./environment.txt";

export interface PromptContext {
  agent: AgentName;
  date: Date;
  /** Whether the workspace container may reach the network. */
  egress: boolean;
  /** The workspace's AGENTS.md, if it has one. */
  agentsMd?: string;
  skills: { name: string; description: string }[];
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\$\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/**
 * The system prompt of one turn: the agent's instructions, the environment, the workspace's own
 * instructions (AGENTS.md) and the skills it can load.
 */
export function systemPrompt(ctx: PromptContext): string {
  const vars = {
    workspace: containerLayout.workspace,
    date: ctx.date.toISOString().slice(0, 10),
    network: ctx.egress ? "" : ", without network access",
  };
  const sections = [fill(AGENTS[ctx.agent].prompt, vars).trim(), fill(environment, vars).trim()];
  if (ctx.agentsMd?.trim()) {
    sections.push(
      `<workspace-instructions source="AGENTS.md">\nThe workspace's own instructions for agents. Follow them where they do not conflict with the person's requests.\n\n${ctx.agentsMd.trim()}\n</workspace-instructions>`,
    );
  }
  if (ctx.skills.length > 0) {
    const list = ctx.skills.map((s) => `- ${s.name}: ${s.description}`).join("\n");
    sections.push(
      `<skills>\nSkills hold instructions for particular tasks. When one fits the task, load it with the skill tool (action "load") before you start.\n${list}\n</skills>`,
    );
  }
  return sections.join("\n\n");
}
