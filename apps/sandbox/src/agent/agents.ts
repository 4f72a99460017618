import type { AgentName } from "@coder/protocol";
import buildPrompt from "./prompt/build.txt";
import planPrompt from "./prompt/plan.txt";
import subagentPrompt from "./prompt/subagent.txt";

export interface AgentProfile {
  name: AgentName;
  /** What the agent is told it is and how to work (`${workspace}` filled in). */
  prompt: string;
  /** Runs only inside `task`, on its own: no questions, todos or further sub-agents. */
  subagent: boolean;
  /** Tools of another agent's list it also gets (plan writes its plan with `write`/`edit`). */
  borrows?: { from: AgentName; tools: readonly string[] };
}

/** Tools a sub-agent never gets: it cannot ask the person, keep todos or start sub-agents. */
export const SUBAGENT_EXCLUDED = new Set(["task", "question", "todoread", "todowrite", "plan_exit"]);

export const AGENTS: Record<AgentName, AgentProfile> = {
  build: { name: "build", prompt: buildPrompt, subagent: false },
  plan: {
    name: "plan",
    prompt: planPrompt,
    subagent: false,
    // Permissions keep these to files under .coder/plans/.
    borrows: { from: "build", tools: ["write", "edit", "patch", "apply_patch"] },
  },
  general: { name: "general", prompt: subagentPrompt, subagent: true },
  explore: { name: "explore", prompt: subagentPrompt, subagent: true },
};

export const SUBAGENTS = (Object.keys(AGENTS) as AgentName[]).filter((a) => AGENTS[a].subagent);
