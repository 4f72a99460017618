import { lstat, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { decodeText, encodeText } from "../../edit/line-endings";
import { unifiedDiff } from "../../files/diff";
import { assertReadAndUnchanged, recordFileState } from "../../files/read-record";
import { formatError } from "../../framework/format";
import { defineTool, ToolError, type ToolResult } from "../../framework/types";
import { resolveInWorkspace } from "../../paths/resolve";
import { shownPath } from "../../paths/tool-paths";
import description from "./write.txt";

const parameters = z.object({
  path: z.string().min(1).describe("File to write, relative to the workspace root"),
  content: z.string().describe("The complete new content of the file"),
});

export const writeTool = defineTool({
  id: "write",
  description,
  parameters,
  facts: { runsIn: "workspace", reads: (args) => [args.path], changes: (args) => [args.path] },
  approval: (args) => ({ permission: "edit", patterns: [args.path], title: `Write ${args.path}` }),
  async execute(args, ctx) {
    const file = await resolveInWorkspace(ctx.workspaceRoot, args.path, { forWrite: true });
    const shown = shownPath(ctx, file);
    const existing = await lstat(file).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new ToolError("is_directory", `${args.path} is a folder`, "write to a file path inside it");
    }
    if (existing) assertReadAndUnchanged(ctx, file, shown, existing);

    const raw = existing ? await readFile(file, "utf8") : "";
    const before = decodeText(raw);
    const text = withFinalNewline(decodeText(args.content).text);
    // A new file is written LF without BOM; an existing one keeps its own style.
    const encoded = existing ? encodeText(text, before.eol, before.bom) : text;
    const { diff, additions, deletions } = unifiedDiff(shown, before.text, text, !existing);

    let operation: "created" | "updated" | "unchanged" = "unchanged";
    if (!existing || encoded !== raw) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, encoded);
      operation = existing ? "updated" : "created";
    }
    recordFileState(ctx, file, await stat(file));
    return { ok: true, path: shown, operation, size: Buffer.byteLength(encoded), additions, deletions, diff };
  },
  format: formatWrite,
});

function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

function formatWrite(result: ToolResult): string {
  if (result.error) return formatError(result);
  const summary = `${result.operation} ${result.path} (${result.size} bytes, +${result.additions} -${result.deletions})`;
  return result.diff ? `${summary}\n${result.diff}` : summary;
}
