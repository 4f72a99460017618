import { readFile } from "node:fs/promises";
import { formatError } from "../../framework/format";
import { defineTool, type ToolContext, type ToolResult } from "../../framework/types";
import { positionParameters } from "../../lsp/position";
import { lspTemplateVars } from "../../lsp/settings";
import { checkPosition, lspTarget, withLanguageServer } from "../../lsp/tool-call";
import type { Location, LocationLink } from "../../lsp/types";
import { isInside } from "../../paths/resolve";
import { shownPath } from "../../paths/tool-paths";
import { toLocations, uriToPath } from "./locations";
import description from "./lsp_definition.txt";

const FALLBACK = "use grep to find where the symbol is defined (e.g. `def name`, `class name`, `name()`)";
/** At most this many further definitions are listed (overloads, re-exports). */
const MAX_LOCATIONS = 20;

export const lspDefinitionTool = defineTool({
  id: "lsp_definition",
  description,
  parameters: positionParameters,
  facts: { runsIn: "workspace", reads: "any", changes: "none" },
  templateVars: lspTemplateVars,
  approval: (args) => ({
    permission: "lsp",
    patterns: [args.path],
    title: `Find the definition at ${args.path}:${args.line + 1}`,
  }),
  async execute(args, ctx) {
    const target = await lspTarget(ctx, args.path, FALLBACK);
    checkPosition(target, args.line, args.character);
    const { value, status } = await withLanguageServer(ctx, target, FALLBACK, (client, uri) =>
      client.request<Location | Location[] | LocationLink[] | null>(
        "textDocument/definition",
        { textDocument: { uri }, position: { line: args.line, character: args.character } },
        ctx.abort,
      ),
    );
    const locations = await Promise.all(
      toLocations(value)
        .slice(0, MAX_LOCATIONS)
        .map((l) => describe(ctx, l)),
    );
    return {
      ok: true,
      location: locations[0] ?? null,
      ...(locations.length > 1 ? { locations } : {}),
      server_status: status,
    };
  },
  format: formatDefinition,
});

interface DescribedLocation extends Location {
  /** The file, relative to the workspace when inside it. */
  path?: string;
  /** The definition's first line, for files inside the workspace. */
  text?: string;
}

async function describe(ctx: ToolContext, location: Location): Promise<DescribedLocation> {
  const file = uriToPath(location.uri);
  if (!file) return location;
  // Only workspace files are read: the server may point anywhere (a library, the standard library).
  if (!isInside(ctx.workspaceRoot, file)) return { ...location, path: file };
  const content = await readFile(file, "utf8").catch(() => undefined);
  const text = content?.split(/\r\n|\r|\n/)[location.range.start.line]?.trim();
  return { ...location, path: shownPath(ctx, file), ...(text ? { text } : {}) };
}

function formatDefinition(result: ToolResult): string {
  if (result.error) return formatError(result);
  const first = result.location as DescribedLocation | null;
  if (!first) {
    return "No definition found at that position. Make sure the position (0-based) is on the symbol's name, or use grep to find it.";
  }
  const all = (result.locations as DescribedLocation[] | undefined) ?? [first];
  const lines = all.map((l) => {
    const where = `${l.path ?? l.uri}:${l.range.start.line + 1}:${l.range.start.character + 1}`;
    return l.text ? `${where}: ${l.text}` : where;
  });
  return all.length === 1 ? `Defined at ${lines[0]}` : `${all.length} definitions:\n${lines.join("\n")}`;
}
