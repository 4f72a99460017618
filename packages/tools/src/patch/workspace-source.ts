import { readFile } from "node:fs/promises";
import { looksBinary, SAMPLE_BYTES } from "../files/binary";
import { type ToolContext, ToolError } from "../framework/types";
import { resolveInWorkspace } from "../paths/resolve";
import { shownPath } from "../paths/tool-paths";
import type { PatchSource } from "./types";

/**
 * The patch planners' view of the real workspace. Every path (targets of renames and moves too) is
 * resolved for writing, so one that leaves the workspace fails the whole patch with
 * permission_denied before anything is written.
 */
export function workspaceSource(ctx: ToolContext): PatchSource {
  return {
    async locate(input) {
      const absolute = await resolveInWorkspace(ctx.workspaceRoot, input, { forWrite: true });
      return { absolute, display: shownPath(ctx, absolute) };
    },
    async read(absolute) {
      let bytes: Buffer;
      try {
        bytes = await readFile(absolute);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return null;
        if (code === "EISDIR") throw new ToolError("is_directory", `${shownPath(ctx, absolute)} is a folder`);
        throw error;
      }
      if (looksBinary(bytes.subarray(0, SAMPLE_BYTES))) {
        throw new ToolError(
          "binary_file",
          `${shownPath(ctx, absolute)} is a binary file; a text patch cannot change it`,
        );
      }
      return bytes.toString("utf8");
    },
  };
}
