import { lstatSync, realpathSync } from "node:fs";
import type { ToolContext } from "../framework/types";
import { displayPath, isInside, resolveInWorkspace } from "./resolve";

/**
 * Resolves a path argument of a reading tool. `read` and `grep` may also reach the folder of
 * spilled outputs, since truncated results tell the model to page through them there.
 */
export async function resolveForReading(
  ctx: ToolContext,
  input: string,
  options: { spill?: boolean } = {},
): Promise<string> {
  // The folder may not exist yet (nothing spilled); roots are compared as real paths.
  const spill = options.spill ? realSpillDir(ctx.spillDir) : undefined;
  return resolveInWorkspace(ctx.workspaceRoot, input, { extraRoots: spill ? [spill] : [] });
}

/**
 * The spill folder's real path, when it is a folder. A link in its place (a process in the
 * workspace can plant one in /tmp before the first spill) would open wherever it leads to reading.
 */
function realSpillDir(dir: string): string | undefined {
  try {
    return lstatSync(dir).isDirectory() ? realpathSync.native(dir) : undefined;
  } catch {
    return undefined;
  }
}

/** How a path appears in results: relative to the workspace root, or absolute when outside it. */
export function shownPath(ctx: ToolContext, absolute: string): string {
  return isInside(ctx.workspaceRoot, absolute) ? displayPath(ctx.workspaceRoot, absolute) : absolute;
}
