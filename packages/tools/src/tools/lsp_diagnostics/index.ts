import { z } from "zod";
import { formatError } from "../../framework/format";
import { defineTool, type ToolResult } from "../../framework/types";
import { lspTemplateVars } from "../../lsp/settings";
import { lspTarget, withLanguageServer } from "../../lsp/tool-call";
import description from "./lsp_diagnostics.txt";
import { type DiagnosticItem, formatItem, summarize, toItems } from "./report";

const FALLBACK = "use grep to look for the problem, or run the project's linter or tests with bash";

const parameters = z.object({
  path: z.string().describe("File to check, relative to the workspace root"),
});

export const lspDiagnosticsTool = defineTool({
  id: "lsp_diagnostics",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: (args) => [args.path], changes: "none" },
  templateVars: lspTemplateVars,
  approval: (args) => ({
    permission: "lsp",
    patterns: [args.path],
    title: `Check ${args.path} for problems`,
  }),
  async execute(args, ctx) {
    const target = await lspTarget(ctx, args.path, FALLBACK);
    const { value, status } = await withLanguageServer(ctx, target, FALLBACK, (client, uri) =>
      client.diagnosticsFor(uri, target.settings.diagnosticsTimeoutMs, ctx.abort),
    );
    const diagnostics = toItems(value.diagnostics);
    return {
      ok: true,
      path: target.shown,
      diagnostics,
      count: diagnostics.length,
      // False when the server had not reported on the current text when the wait ran out.
      fresh: value.fresh,
      server_status: status,
    };
  },
  format: formatDiagnostics,
});

function formatDiagnostics(result: ToolResult): string {
  if (result.error) return formatError(result);
  const path = result.path as string;
  const items = result.diagnostics as DiagnosticItem[];
  const lines = [`${path}: ${summarize(items)}`, ...items.map((item) => formatItem(path, item))];
  if (!result.fresh) {
    lines.push(
      "(the language server had not finished checking the current text; this may be out of date — call again to re-check)",
    );
  }
  return lines.join("\n");
}
