import { formatError } from "../../framework/format";
import { defineTool, type ToolResult } from "../../framework/types";
import { positionParameters } from "../../lsp/position";
import { lspTemplateVars } from "../../lsp/settings";
import { checkPosition, lspTarget, withLanguageServer } from "../../lsp/tool-call";
import type { Hover } from "../../lsp/types";
import { hoverText } from "./contents";
import description from "./lsp_hover.txt";

const FALLBACK = "read the source around the symbol and where it is defined (find it with grep)";

export const lspHoverTool = defineTool({
  id: "lsp_hover",
  description,
  parameters: positionParameters,
  facts: { runsIn: "workspace", reads: (args) => [args.path], changes: "none" },
  templateVars: lspTemplateVars,
  approval: (args) => ({
    permission: "lsp",
    patterns: [args.path],
    title: `Look up the symbol at ${args.path}:${args.line + 1}`,
  }),
  async execute(args, ctx) {
    const target = await lspTarget(ctx, args.path, FALLBACK);
    checkPosition(target, args.line, args.character);
    const { value, status } = await withLanguageServer(ctx, target, FALLBACK, (client, uri) =>
      client.request<Hover | null>(
        "textDocument/hover",
        { textDocument: { uri }, position: { line: args.line, character: args.character } },
        ctx.abort,
      ),
    );
    return { ok: true, contents: hoverText(value), server_status: status };
  },
  format: formatHover,
});

function formatHover(result: ToolResult): string {
  if (result.error) return formatError(result);
  const contents = result.contents as string;
  return (
    contents ||
    "No information at that position. Make sure the position (0-based) is on the symbol's name, or read the source instead."
  );
}
