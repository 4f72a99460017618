import { describe, expect, it } from "vitest";
import { systemPrompt } from "./system-prompt";

const base = { date: new Date("2026-03-04T10:00:00Z"), egress: false, skills: [] };

describe("the system prompt", () => {
  it("gives the environment: workspace root, date, platform and network", () => {
    const prompt = systemPrompt({ ...base, agent: "build" });
    expect(prompt).toContain("Workspace root: /workspace");
    expect(prompt).toContain("Today's date: 2026-03-04");
    expect(prompt).toContain("without network access");
    expect(systemPrompt({ ...base, agent: "build", egress: true })).not.toContain("without network access");
    expect(prompt).not.toMatch(/\$\{\w+\}/);
  });

  it("includes the workspace's AGENTS.md and the skills it can load", () => {
    const prompt = systemPrompt({
      ...base,
      agent: "build",
      agentsMd: "Run `make check` before you finish.\n",
      skills: [{ name: "create-skill", description: "Write a new skill" }],
    });
    expect(prompt).toMatch(
      /<workspace-instructions source="AGENTS.md">[\s\S]*Run `make check` before you finish\./,
    );
    expect(prompt).toMatch(/<skills>[\s\S]*- create-skill: Write a new skill/);
    expect(systemPrompt({ ...base, agent: "build", agentsMd: "  \n" })).not.toContain(
      "workspace-instructions",
    );
  });

  it("differs between the agents", () => {
    const prompts = (["build", "plan", "explore"] as const).map((agent) => systemPrompt({ ...base, agent }));
    expect(new Set(prompts).size).toBe(3);
  });
});
