import type { Stats } from "node:fs";
import { type ToolContext, ToolError } from "../framework/types";

/** Remembers the file as the session now knows it (after a read or its own write). */
export function recordFileState(ctx: ToolContext, absolute: string, stat: Stats): void {
  ctx.session.files.set(absolute, { mtimeMs: stat.mtimeMs, size: stat.size });
}

/**
 * Read-before-write: overwriting an existing file is only allowed when this session has read it
 * and nobody changed it on disk since (a person typing in the editor, a formatter, git).
 */
export function assertReadAndUnchanged(ctx: ToolContext, absolute: string, shown: string, stat: Stats): void {
  const known = ctx.session.files.get(absolute);
  if (!known) {
    throw new ToolError(
      "stale_file",
      `${shown} exists and has not been read in this session`,
      `read ${shown} first, then write it`,
    );
  }
  if (known.mtimeMs !== stat.mtimeMs || known.size !== stat.size) {
    throw new ToolError(
      "stale_file",
      `${shown} changed on disk since it was last read (someone else edited it)`,
      `read ${shown} again and apply your change to its current content`,
    );
  }
}
