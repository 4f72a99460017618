import { z } from "zod";
import { requireService } from "../../framework/services";
import { defineTool } from "../../framework/types";
import description from "./batch.txt";

export const MAX_CALLS = 10;

const parameters = z.object({
  tool_calls: z
    .array(
      z.object({
        tool: z
          .string()
          .min(1)
          .refine((name) => name !== "batch", "batch cannot call batch"),
        parameters: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .min(1, "give at least one call")
    .max(MAX_CALLS, `at most ${MAX_CALLS} calls per batch`),
});

export const batchTool = defineTool({
  id: "batch",
  description,
  parameters,
  facts: { runsIn: "service", reads: "any", changes: "any" },
  templateVars: () => ({ maxCalls: MAX_CALLS }),
  enabled: (config) => config.experimental?.batch_tool === true,
  async execute(args, ctx) {
    const run = requireService(ctx, "batch", "batch");
    const { results } = await run(args, ctx);
    return { ok: true, results };
  },
});
