import { z } from "zod";
import { formatError } from "../../framework/format";
import { defineTool, fail, type ToolResult } from "../../framework/types";
import { shownPath } from "../../paths/tool-paths";
import { discoverSkills } from "../../skills/discover";
import description from "./skill.txt";

const parameters = z
  .object({
    action: z.enum(["list", "load"]).describe("list the skills, or load one by name"),
    name: z.string().min(1).optional().describe("The skill to load (for action load)"),
  })
  .superRefine((args, check) => {
    if (args.action === "load" && !args.name) {
      check.addIssue({ code: "custom", path: ["name"], message: "required when action is load" });
    }
  });

export const skillTool = defineTool({
  id: "skill",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: "any", changes: "none" },
  approval: (args) =>
    args.action === "load" && args.name
      ? { permission: "skill", patterns: [args.name], title: `Load skill ${args.name}` }
      : undefined,
  async execute(args, ctx) {
    const skills = await discoverSkills(ctx.config, ctx.workspaceRoot);
    if (args.action === "list") {
      const list = [...skills.values()]
        .sort((a, b) => a.name.localeCompare(b.name, "en"))
        .map(({ name, description, source }) => ({ name, description, source }));
      return { ok: true, skills: list };
    }
    const skill = skills.get(args.name ?? "");
    if (!skill) {
      const known = [...skills.keys()].sort().join(", ") || "none";
      return fail(
        "not_found",
        `there is no skill named "${args.name}"`,
        `available skills: ${known}; carry on without it`,
      );
    }
    return {
      ok: true,
      name: skill.name,
      description: skill.description,
      source: skill.source,
      ...(skill.directory ? { directory: shownPath(ctx, skill.directory) } : {}),
      content: skill.content,
    };
  },
  format: formatSkill,
});

function formatSkill(result: ToolResult): string {
  if (result.error) return formatError(result);
  if (Array.isArray(result.skills)) {
    const skills = result.skills as { name: string; description: string; source: string }[];
    if (skills.length === 0) return "No skills are available.";
    return skills.map((s) => `- ${s.name} (${s.source}): ${s.description}`).join("\n");
  }
  const where = result.directory ? `\nFiles it mentions are relative to ${result.directory}` : "";
  return `<skill name="${result.name}">\n${result.content}\n</skill>${where}`;
}
