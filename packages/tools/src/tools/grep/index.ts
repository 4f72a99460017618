import { z } from "zod";
import { isBinaryFile } from "../../files/binary";
import { statExisting } from "../../files/not-found";
import { formatError } from "../../framework/format";
import { defineTool, ToolError, type ToolResult } from "../../framework/types";
import { resolveForReading, shownPath } from "../../paths/tool-paths";
import description from "./grep.txt";
import { searchFiles } from "./search";

export const DEFAULT_MATCHES = 200;
export const MAX_MATCHES = 2000;
/** Matching lines are cut to this many characters (minified files have enormous lines). */
const MAX_TEXT_CHARS = 500;

const parameters = z.object({
  pattern: z.string().min(1).describe("Regular expression to search for"),
  path: z
    .string()
    .default(".")
    .describe("Folder or file to search, relative to the workspace root (default: the root)"),
  include: z.string().min(1).optional().describe("Only search files matching this glob, e.g. *.ts"),
  max_matches: z
    .number()
    .int()
    .positive()
    .max(MAX_MATCHES)
    .optional()
    .describe(`Most matching lines to return (default ${DEFAULT_MATCHES})`),
});

interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export const grepTool = defineTool({
  id: "grep",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: "any", changes: "none" },
  templateVars: () => ({ defaultMatches: DEFAULT_MATCHES }),
  approval: (args) => ({
    permission: "read",
    patterns: [args.path],
    title: `Search for ${args.pattern} in ${args.path}`,
  }),
  async execute(args, ctx) {
    const target = await resolveForReading(ctx, args.path, { spill: true });
    const st = await statExisting(ctx, target, args.path);
    const limit = args.max_matches ?? DEFAULT_MATCHES;
    const isFile = !st.isDirectory();
    if (isFile && (await isBinaryFile(target))) return { ok: true, count: 0, matches: [], truncated: false };

    const outcome = await searchFiles(ctx, {
      pattern: args.pattern,
      target,
      isFile,
      include: args.include,
      limit,
    });
    if (outcome.kind === "bad_pattern") {
      throw new ToolError(
        "invalid_args",
        `pattern is not a valid regular expression: ${outcome.message}`,
        "escape special characters such as ( [ { . * + ? with a backslash to match them literally",
      );
    }
    const matches: GrepMatch[] = outcome.matches
      .slice(0, limit)
      .map((m) => ({ path: shownPath(ctx, m.file), line: m.line, text: cut(m.text) }))
      .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
    return { ok: true, count: matches.length, matches, truncated: outcome.matches.length > limit };
  },
  format: formatGrep,
});

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}... [line cut]` : text;
}

/** Matches grouped under their file, `line: text`. */
function formatGrep(result: ToolResult): string {
  if (result.error) return formatError(result);
  const matches = result.matches as GrepMatch[];
  if (matches.length === 0) return "No matches found";
  const out = [
    result.truncated
      ? `Found more than ${matches.length} matches; showing the first ${matches.length} (narrow the pattern, path or include)`
      : `Found ${matches.length} match${matches.length === 1 ? "" : "es"}`,
  ];
  let current = "";
  for (const match of matches) {
    if (match.path !== current) {
      current = match.path;
      out.push("", `${match.path}:`);
    }
    out.push(`  ${match.line}: ${match.text}`);
  }
  return out.join("\n");
}
