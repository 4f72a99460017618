import { z } from "zod";
import { requireService } from "../../framework/services";
import { defineTool } from "../../framework/types";
import description from "./websearch.txt";

const parameters = z.object({
  query: z.string().trim().min(1).describe("What to search for"),
  num_results: z.number().int().positive().max(20).optional().describe("How many results (default 8)"),
});

export const websearchTool = defineTool({
  id: "websearch",
  description,
  parameters,
  facts: { runsIn: "service", reads: "none", changes: "none" },
  enabled: (config) => config.experimental?.websearch === true && config.searchConfigured === true,
  approval: (args) => ({
    permission: "websearch",
    patterns: [args.query],
    title: `Search the web for ${args.query}`,
  }),
  async execute(args, ctx) {
    const search = requireService(ctx, "websearch", "websearch");
    const { results } = await search(args, ctx);
    return { ok: true, results };
  },
});
