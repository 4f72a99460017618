import { z } from "zod";
import { formatError } from "../../framework/format";
import { requireService } from "../../framework/services";
import { defineTool } from "../../framework/types";
import description from "./task.txt";

const parameters = z.object({
  agent: z.string().trim().min(1, "name the sub-agent").describe("The sub-agent to run, e.g. explore"),
  objective: z
    .string()
    .trim()
    .min(1, "say what the sub-agent should do")
    .describe("The complete task for it"),
});

export const taskTool = defineTool({
  id: "task",
  description,
  parameters,
  facts: { runsIn: "service", reads: "any", changes: "any" },
  approval: (args) => ({ permission: "task", patterns: [args.agent], title: `Run the ${args.agent} agent` }),
  async execute(args, ctx) {
    const run = requireService(ctx, "task", "task");
    const { summary } = await run(args, ctx);
    return { ok: true, agent: args.agent, summary };
  },
  format: (result) => (result.error ? formatError(result) : String(result.summary)),
});
