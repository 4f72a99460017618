import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { z } from "zod";
import { decodeText } from "../../edit/line-endings";
import { isBinaryHandle, looksBinary, SAMPLE_BYTES } from "../../files/binary";
import { statExisting } from "../../files/not-found";
import { numberedLines } from "../../files/numbered-lines";
import { RECORD_TEXT_CHARS, recordFileState } from "../../files/read-record";
import { formatError } from "../../framework/format";
import { MAX_OUTPUT_BYTES } from "../../framework/truncate";
import { defineTool, ToolError, type ToolResult } from "../../framework/types";
import { resolveForReading, shownPath } from "../../paths/tool-paths";
import { formatItems, type ListItem, listFolder } from "../list/entries";
import { type ByteSource, memorySource, readLineWindow } from "./lines";
import description from "./read.txt";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
export const MAX_LINE_CHARS = 2000;
/** Files up to this size are read whole (and kept for read-before-write); larger ones are streamed. */
const WHOLE_FILE_BYTES = RECORD_TEXT_CHARS;

const parameters = z.object({
  path: z.string().describe("File to read, relative to the workspace root"),
  offset: z
    .number()
    .int()
    .optional()
    .describe("1-based line to start at (default 1); negative: read the last -offset lines"),
  limit: z
    .number()
    .int()
    .optional()
    .describe(`How many lines to read (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`),
});

export const readTool = defineTool({
  id: "read",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: (args) => [args.path], changes: "none" },
  // Pages are bounded here (lines, line length, bytes), and a spilled page would only point back.
  ownsTruncation: true,
  templateVars: () => ({ defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT, maxLineChars: MAX_LINE_CHARS }),
  approval: (args) => ({ permission: "read", patterns: [args.path], title: `Read ${args.path}` }),
  async execute(args, ctx) {
    const file = await resolveForReading(ctx, args.path, { spill: true });
    const st = await statExisting(ctx, file, args.path);
    const shown = shownPath(ctx, file);
    if (st.isDirectory()) {
      const { items, total, truncated } = await listFolder(ctx.workspaceRoot, file);
      return { ok: true, path: shown, is_directory: true, items, total, truncated };
    }
    // A small file is read whole in one synchronous call: on the hot path of the agent, each
    // asynchronous file operation costs a thread-pool round trip. Large files are streamed.
    if (st.size <= WHOLE_FILE_BYTES) {
      const data = readFileSync(file);
      if (looksBinary(data.subarray(0, SAMPLE_BYTES))) throw binary(args.path);
      const page = await readPage(memorySource(data), args, shown);
      // The whole text is kept: a later change is judged by the lines it replaces (read-record.ts).
      recordFileState(ctx, file, st, decodeText(data.toString("utf8")).text);
      return page;
    }
    const handle = await open(file, "r");
    try {
      if (await isBinaryHandle(handle)) throw binary(args.path);
      const page = await readPage(handle, args, shown);
      recordFileState(ctx, file, st);
      return page;
    } finally {
      await handle.close();
    }
  },
  format: formatRead,
});

function binary(path: string): ToolError {
  return new ToolError("binary_file", `${path} is a binary file`, "only text files can be read");
}

async function readPage(
  source: ByteSource,
  args: { offset?: number; limit?: number },
  shown: string,
): Promise<ToolResult> {
  const limits = { maxLineChars: MAX_LINE_CHARS, maxBytes: MAX_OUTPUT_BYTES };
  const offset = args.offset ?? 0;
  let first = offset > 0 ? offset : 1;
  let count = args.limit !== undefined && args.limit > 0 ? Math.min(args.limit, MAX_LIMIT) : DEFAULT_LIMIT;
  if (offset < 0) {
    // Tail mode: count the lines first, then read the last ones.
    const { totalLines } = await readLineWindow(source, Number.POSITIVE_INFINITY, 0, limits);
    count = Math.min(-offset, MAX_LIMIT);
    first = Math.max(1, totalLines - count + 1);
  }
  const window = await readLineWindow(source, first, count, limits);
  return {
    ok: true,
    path: shown,
    content: window.lines.join("\n"),
    start_line: window.startLine,
    end_line: window.endLine,
    has_more: window.endLine > 0 && window.endLine < window.totalLines,
    total_lines: window.totalLines,
    ...(window.cutLines > 0 ? { cut_lines: window.cutLines } : {}),
  };
}

/** `cat -n` style numbered lines plus where the page sits in the file. */
function formatRead(result: ToolResult): string {
  if (result.error) return formatError(result);
  if (result.is_directory) {
    return `${result.path} is a folder:\n${formatItems(result.items as ListItem[], result.total as number)}`;
  }
  const start = result.start_line as number;
  const end = result.end_line as number;
  const total = result.total_lines as number;
  if (end === 0) {
    return total === 0 ? "(the file is empty)" : `(no lines there: the file has ${total} lines)`;
  }
  const numbered = numberedLines(result.content as string, start);
  const footer = result.has_more
    ? `(lines ${start}-${end} of ${total}; use offset ${end + 1} to read on)`
    : `(end of file: ${total} lines)`;
  return `${numbered}\n\n${footer}`;
}
