import { lstat, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { decodeText, encodeText } from "../../edit/line-endings";
import { replace } from "../../edit/replace";
import { looksBinary, SAMPLE_BYTES } from "../../files/binary";
import { notFound } from "../../files/not-found";
import { numberedLines } from "../../files/numbered-lines";
import { assertReadAndUnchanged, recordFileState } from "../../files/read-record";
import { formatError } from "../../framework/format";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../../framework/types";
import { resolveInWorkspace } from "../../paths/resolve";
import { shownPath } from "../../paths/tool-paths";
import { editDiff } from "./diff-window";
import description from "./edit.txt";

const parameters = z.object({
  path: z.string().min(1).describe("File to edit, relative to the workspace root"),
  old_string: z.string().describe("The exact text to replace (empty to create a new file)"),
  new_string: z.string().describe("The text to put in its place"),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence of old_string (default: exactly one)"),
});

export const editTool = defineTool({
  id: "edit",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: (args) => [args.path], changes: (args) => [args.path] },
  approval: (args) => ({ permission: "edit", patterns: [args.path], title: `Edit ${args.path}` }),
  async execute(args, ctx) {
    if (args.old_string === args.new_string) {
      throw new ToolError(
        "invalid_args",
        "old_string and new_string are the same; the edit would change nothing",
      );
    }
    const file = await resolveInWorkspace(ctx.workspaceRoot, args.path, { forWrite: true });
    const shown = shownPath(ctx, file);
    const existing = await lstat(file).catch(() => undefined);
    if (existing?.isDirectory())
      throw new ToolError("is_directory", `${shown} is a folder`, "edit a file inside it");
    if (!existing) {
      if (args.old_string !== "") throw await notFound(ctx, file, args.path);
      return writeEdit(ctx, file, shown, { before: "", after: args.new_string, created: true });
    }
    const raw = await readFile(file);
    if (looksBinary(raw.subarray(0, SAMPLE_BYTES)))
      throw new ToolError("binary_file", `${shown} is a binary file`);
    assertReadAndUnchanged(ctx, file, shown, existing);
    const decoded = decodeText(raw.toString("utf8"));

    if (args.old_string === "") {
      if (decoded.text !== "") {
        throw new ToolError(
          "invalid_args",
          `old_string is empty but ${shown} is not`,
          "give the exact text to replace, or use write to replace the whole file",
        );
      }
      return writeEdit(ctx, file, shown, {
        before: "",
        after: args.new_string,
        created: false,
        style: decoded,
      });
    }
    const result = replace(decoded.text, args.old_string, args.new_string, args.replace_all ?? false);
    if (!result.ok) {
      const closest = result.closest && { start_line: result.closest.startLine, text: result.closest.text };
      const hint = closest
        ? `the closest text in the file (the numbers and the tab before each line are not part of it):\n${numberedLines(closest.text, closest.start_line)}`
        : result.code === "conflict"
          ? "add surrounding lines to old_string, or set replace_all"
          : undefined;
      throw new ToolError(
        result.code,
        result.message,
        hint,
        closest ? { closest } : result.lines ? { lines: result.lines } : undefined,
      );
    }
    return writeEdit(ctx, file, shown, {
      before: decoded.text,
      after: result.content,
      created: false,
      style: decoded,
      replacements: result.replacements,
      strategy: result.strategy,
    });
  },
  format: formatEdit,
});

interface EditOutcome {
  before: string;
  /** The new text; LF, or in any line endings when the file is created. */
  after: string;
  created: boolean;
  /** The file's line endings and BOM; a new file is LF without BOM. */
  style?: { eol: "\n" | "\r\n"; bom: boolean };
  replacements?: number;
  strategy?: string;
}

async function writeEdit(
  ctx: ToolContext,
  file: string,
  shown: string,
  outcome: EditOutcome,
): Promise<ToolResult> {
  const after = decodeText(outcome.after).text;
  const { eol, bom } = outcome.style ?? { eol: "\n", bom: false };
  if (outcome.created) await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, encodeText(after, eol, bom));
  recordFileState(ctx, file, await stat(file));
  const { diff, additions, deletions } = editDiff(shown, outcome.before, after, outcome.created);
  return {
    ok: true,
    path: shown,
    replacements: outcome.replacements ?? 1,
    strategy: outcome.strategy ?? (outcome.created ? "created" : "filled"),
    additions,
    deletions,
    diff,
  };
}

function formatEdit(result: ToolResult): string {
  if (result.error) return formatError(result);
  const how = result.strategy === "exact" ? "" : `, matched by ${result.strategy}`;
  const count = result.replacements === 1 ? "1 replacement" : `${result.replacements} replacements`;
  const summary = `Edited ${result.path} (${count}${how}, +${result.additions} -${result.deletions})`;
  return result.diff ? `${summary}\n${result.diff}` : summary;
}
