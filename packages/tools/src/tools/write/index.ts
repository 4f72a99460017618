import { lstat, mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { decodeText, encodeText } from "../../edit/line-endings";
import { writeFileAtomically } from "../../files/atomic-write";
import { unifiedDiff } from "../../files/diff";
import { changeOnCurrent } from "../../files/merge-change";
import { knownText, recordFileState } from "../../files/read-record";
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
    const text = withFinalNewline(decodeText(args.content).text);
    // Each attempt plans on the file as it is; a change landing before the write makes it plan again.
    for (let attempt = 1; ; attempt++) {
      const existing = await lstat(file).catch(() => undefined);
      if (existing?.isDirectory()) {
        throw new ToolError("is_directory", `${args.path} is a folder`, "write to a file path inside it");
      }
      const raw = existing ? await readFile(file) : null;
      const before = decodeText(raw?.toString("utf8") ?? "");
      // An existing file: the session must have read it, and what others changed since is kept.
      const after = existing
        ? changeOnCurrent(
            ctx,
            file,
            shown,
            knownText(ctx, file, shown, existing, before.text),
            text,
            before.text,
          )
        : text;
      // A new file is written LF without BOM; an existing one keeps its own style.
      const encoded = existing ? encodeText(after, before.eol, before.bom) : after;
      if (existing && raw && encoded === raw.toString("utf8")) {
        recordFileState(ctx, file, existing, text);
        return {
          ok: true,
          path: shown,
          operation: "unchanged",
          size: raw.length,
          additions: 0,
          deletions: 0,
          diff: "",
        };
      }
      if (!existing) await mkdir(path.dirname(file), { recursive: true });
      if (await writeFileAtomically(file, encoded, raw)) {
        recordFileState(ctx, file, await stat(file), text);
        const { diff, additions, deletions } = unifiedDiff(shown, before.text, after, !existing);
        const operation = existing ? "updated" : "created";
        return {
          ok: true,
          path: shown,
          operation,
          size: Buffer.byteLength(encoded),
          additions,
          deletions,
          diff,
        };
      }
      if (attempt === MAX_ATTEMPTS) {
        throw new ToolError(
          "stale_file",
          `${shown} kept changing while it was being written; nothing was changed`,
          "try the same write again",
        );
      }
    }
  },
  format: formatWrite,
});

/** Plans again when the file changed between reading it and writing it (another writer at work). */
const MAX_ATTEMPTS = 3;

function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

function formatWrite(result: ToolResult): string {
  if (result.error) return formatError(result);
  const summary = `${result.operation} ${result.path} (${result.size} bytes, +${result.additions} -${result.deletions})`;
  return result.diff ? `${summary}\n${result.diff}` : summary;
}
