import { lstat, mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { decodeText, encodeText } from "../../edit/line-endings";
import { replace } from "../../edit/replace";
import { writeFileAtomically } from "../../files/atomic-write";
import { looksBinary, SAMPLE_BYTES } from "../../files/binary";
import { changeOnCurrent } from "../../files/merge-change";
import { notFound } from "../../files/not-found";
import { numberedLines } from "../../files/numbered-lines";
import { knownText, recordFileState } from "../../files/read-record";
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
    // Each attempt plans on the file as it is; a change landing before the write makes it plan again.
    for (let attempt = 1; ; attempt++) {
      const edit = await planEdit(ctx, args, file, shown);
      const { eol, bom } = edit.style ?? { eol: "\n", bom: false };
      if (await writeFileAtomically(file, encodeText(edit.after, eol, bom), edit.raw)) {
        recordFileState(ctx, file, await stat(file), edit.known);
        return editResult(shown, edit);
      }
      if (attempt === MAX_ATTEMPTS) {
        throw new ToolError(
          "stale_file",
          `${shown} kept changing while the edit was being written; nothing was changed`,
          "try the same edit again",
        );
      }
    }
  },
  format: formatEdit,
});

/** Plans again when the file changed between reading it and writing it (another writer at work). */
const MAX_ATTEMPTS = 3;

type EditArgs = z.infer<typeof parameters>;

interface PlannedEdit {
  /** The file's bytes the edit was planned on (null: there was no file). */
  raw: Buffer | null;
  /** The file's text before and after (LF). */
  before: string;
  after: string;
  /** The text the session knows the file by afterwards: what it read, with its own edit. */
  known: string;
  created: boolean;
  /** The file's line endings and BOM; a new file is LF without BOM. */
  style?: { eol: "\n" | "\r\n"; bom: boolean };
  replacements?: number;
  strategy?: string;
}

async function planEdit(ctx: ToolContext, args: EditArgs, file: string, shown: string): Promise<PlannedEdit> {
  const existing = await lstat(file).catch(() => undefined);
  if (existing?.isDirectory())
    throw new ToolError("is_directory", `${shown} is a folder`, "edit a file inside it");
  if (!existing) {
    if (args.old_string !== "") throw await notFound(ctx, file, args.path);
    await mkdir(path.dirname(file), { recursive: true });
    const after = decodeText(args.new_string).text;
    return { raw: null, before: "", after, known: after, created: true };
  }
  const raw = await readFile(file);
  if (looksBinary(raw.subarray(0, SAMPLE_BYTES)))
    throw new ToolError("binary_file", `${shown} is a binary file`);
  const decoded = decodeText(raw.toString("utf8"));
  const current = decoded.text;
  const known = knownText(ctx, file, shown, existing, current);
  const planned = { raw, before: current, created: false, style: decoded };

  if (args.old_string === "") {
    if (current !== "") {
      throw new ToolError(
        "invalid_args",
        `old_string is empty but ${shown} is not`,
        "give the exact text to replace, or use write to replace the whole file",
      );
    }
    const after = decodeText(args.new_string).text;
    return { ...planned, after, known: after };
  }
  const replaceAll = args.replace_all ?? false;
  // Judged against the text the session read: people may have typed elsewhere in the file since.
  const onKnown = replace(known, args.old_string, args.new_string, replaceAll);
  if (onKnown.ok) {
    const after = changeOnCurrent(ctx, file, shown, known, onKnown.content, current);
    return { ...planned, after, known: onKnown.content, ...counts(onKnown) };
  }
  // Text the session did not read there (it may have it from a search, or a stale edit's quote) is
  // taken as it is now: old_string names it.
  const onCurrent =
    known === current || onKnown.code !== "not_found"
      ? onKnown
      : replace(current, args.old_string, args.new_string, replaceAll);
  if (!onCurrent.ok) throw replaceError(onCurrent);
  return { ...planned, after: onCurrent.content, known: onCurrent.content, ...counts(onCurrent) };
}

function counts(result: { replacements: number; strategy: string }) {
  return { replacements: result.replacements, strategy: result.strategy };
}

function replaceError(result: Extract<ReturnType<typeof replace>, { ok: false }>): ToolError {
  const closest = result.closest && { start_line: result.closest.startLine, text: result.closest.text };
  const hint = closest
    ? `the closest text in the file (the numbers and the tab before each line are not part of it):\n${numberedLines(closest.text, closest.start_line)}`
    : result.code === "conflict"
      ? "add surrounding lines to old_string, or set replace_all"
      : undefined;
  return new ToolError(
    result.code,
    result.message,
    hint,
    closest ? { closest } : result.lines ? { lines: result.lines } : undefined,
  );
}

function editResult(shown: string, edit: PlannedEdit): ToolResult {
  const { diff, additions, deletions } = editDiff(shown, edit.before, edit.after, edit.created);
  return {
    ok: true,
    path: shown,
    replacements: edit.replacements ?? 1,
    strategy: edit.strategy ?? (edit.created ? "created" : "filled"),
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
