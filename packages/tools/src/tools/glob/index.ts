import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { statExisting } from "../../files/not-found";
import { formatError } from "../../framework/format";
import { defineTool, ToolError, type ToolResult } from "../../framework/types";
import { resolveForReading, shownPath } from "../../paths/tool-paths";
import { findFiles } from "./find";
import description from "./glob.txt";

export const MAX_MATCHES = 100;

const parameters = z.object({
  pattern: z.string().min(1).describe("Glob pattern, e.g. **/*.ts or src/**/*.test.ts"),
  path: z
    .string()
    .default(".")
    .describe("Folder to search, relative to the workspace root (default: the root)"),
});

export const globTool = defineTool({
  id: "glob",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: "any", changes: "none" },
  templateVars: () => ({ maxMatches: MAX_MATCHES }),
  approval: (args) => ({
    permission: "read",
    patterns: [args.path],
    title: `Find ${args.pattern} in ${args.path}`,
  }),
  async execute(args, ctx) {
    checkPattern(args.pattern);
    const folder = await resolveForReading(ctx, args.path);
    const st = await statExisting(ctx, folder, args.path);
    if (!st.isDirectory()) throw new ToolError("invalid_args", `${args.path} is a file, not a folder`);

    const found = await findFiles(ctx, folder, args.pattern);
    const dated = await Promise.all(
      found.map(async (file) => ({ file, mtime: (await stat(file).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : 1));
    return {
      ok: true,
      matches: dated.slice(0, MAX_MATCHES).map((d) => shownPath(ctx, d.file)),
      truncated: dated.length > MAX_MATCHES,
    };
  },
  format: formatGlob,
});

function checkPattern(pattern: string): void {
  if (path.isAbsolute(pattern) || /^[A-Za-z]:[\\/]/.test(pattern) || pattern.startsWith("~")) {
    throw new ToolError(
      "invalid_args",
      `absolute patterns are not allowed: ${pattern}`,
      "use a pattern relative to the folder given in path",
    );
  }
  if (pattern.split(/[\\/]/).includes("..")) {
    throw new ToolError(
      "permission_denied",
      `the pattern ${pattern} leaves the search folder`,
      "use path to choose the folder",
    );
  }
}

function formatGlob(result: ToolResult): string {
  if (result.error) return formatError(result);
  const matches = result.matches as string[];
  if (matches.length === 0) return "No files found";
  const more = result.truncated
    ? `\n(showing the ${MAX_MATCHES} newest matches; narrow the pattern or path)`
    : "";
  return matches.join("\n") + more;
}
