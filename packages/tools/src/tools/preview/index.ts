import { z } from "zod";
import { formatError } from "../../framework/format";
import { requireService } from "../../framework/services";
import { defineTool, type PreviewPage, type ToolResult } from "../../framework/types";
import description from "./preview.txt";

const parameters = z.object({
  port: z.number().int().min(1).max(65535).describe("The port the app listens on inside the workspace"),
  path: z
    .string()
    .max(2048)
    .regex(/^\/(?!\/)/, "must start with a single /, like /about?tab=2")
    .default("/")
    .describe("The page's path and query (default /)"),
  screenshot: z.boolean().default(false).describe("Also return a PNG of the page"),
});

export const previewTool = defineTool({
  id: "preview",
  description,
  parameters,
  // It only looks: the browser runs beside the workspace and touches none of its files.
  facts: { runsIn: "service", reads: "none", changes: "none" },
  approval: (args) => ({
    permission: "preview",
    patterns: [String(args.port)],
    title: `Look at port ${args.port}${args.path}`,
  }),
  async execute(args, ctx) {
    const load = requireService(ctx, "preview", "preview");
    const page = await load(args, ctx);
    return { ok: true, ...page };
  },
  format: (result) => (result.error ? formatError(result) : pageText(result)),
});

/** How the page reads for the model; the screenshot's pixels go to it apart (as an image). */
function pageText(result: ToolResult): string {
  const page = result as ToolResult & PreviewPage;
  const lines = [
    `${page.url} answered ${page.status ?? "without a status"}`,
    `Title: ${page.title || "(none)"}`,
  ];
  const errors = page.console_errors ?? [];
  lines.push(
    errors.length ? `Console errors:\n${errors.map((e) => `- ${e}`).join("\n")}` : "Console errors: none",
  );
  const failed = page.failed_requests ?? [];
  lines.push(
    failed.length
      ? `Failed requests:\n${failed.map((r) => `- ${r.url}: ${r.reason}`).join("\n")}`
      : "Failed requests: none",
  );
  if (page.screenshot)
    lines.push(`Screenshot: ${page.screenshot.width}×${page.screenshot.height} PNG, attached`);
  if (page.screenshot_note) lines.push(`Screenshot: none, ${page.screenshot_note}`);
  lines.push(`Visible text${page.text_truncated ? " (cut)" : ""}:`, page.text || "(none)");
  return lines.join("\n");
}
