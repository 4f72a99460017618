import { z } from "zod";
import { formatError } from "../../framework/format";
import { requireService } from "../../framework/services";
import { defineTool } from "../../framework/types";
import description from "./webfetch.txt";

const parameters = z.object({
  url: z
    .url({ protocol: /^https?$/, error: "must be a full http:// or https:// address" })
    .describe("The address to fetch"),
  format: z.enum(["markdown", "text", "html"]).default("markdown").describe("How to return the content"),
  timeout: z.number().positive().max(120).optional().describe("Seconds to wait (at most 120)"),
});

export const webfetchTool = defineTool({
  id: "webfetch",
  description,
  parameters,
  facts: { runsIn: "service", reads: "none", changes: "none" },
  enabled: (config) => config.webfetch !== false,
  approval: (args) => ({ permission: "webfetch", patterns: [args.url], title: `Fetch ${args.url}` }),
  async execute(args, ctx) {
    const fetchPage = requireService(ctx, "webfetch", "webfetch");
    const page = await fetchPage(args, ctx);
    return { ok: true, url: page.url, content_type: page.content_type, content: page.content };
  },
  format: (result) => (result.error ? formatError(result) : String(result.content)),
});
