import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { displayPath, resolveInWorkspace, ToolError } from "@coder/tools";
import { daemonError, toResponseError } from "../rpc/errors";

/** A request's path, resolved: where it is on disk and how to name it to the client. */
export interface ResolvedPath {
  abs: string;
  /** Relative to the root with forward slashes ("." for the root), as the client spelled it. */
  display: string;
}

function displayOf(root: string, input: string): string {
  return displayPath(root, path.resolve(root, input));
}

/**
 * Resolves a path and follows it (symlinks included) to the file it names, refusing anything
 * that ends up outside the workspace. With `forWrite` the final component must not be a symlink.
 */
export async function resolveTarget(
  root: string,
  input: string,
  options: { forWrite?: boolean } = {},
): Promise<ResolvedPath> {
  const display = displayOf(root, input);
  try {
    return { abs: await resolveInWorkspace(root, input, options), display };
  } catch (error) {
    throw toResponseError(error, display);
  }
}

/**
 * Resolves a path to the directory entry itself, without following its final component: renaming
 * or deleting a symlink acts on the link, never on what it points to (which may be outside).
 */
export async function resolveEntry(root: string, input: string): Promise<ResolvedPath> {
  const lexical = path.resolve(root, input);
  const display = displayOf(root, input);
  if (lexical === root) return { abs: root, display };
  try {
    const parent = await resolveInWorkspace(root, path.dirname(lexical));
    return { abs: path.join(parent, path.basename(lexical)), display };
  } catch (error) {
    if (error instanceof ToolError && error.code === "permission_denied") {
      throw daemonError(DaemonErrorCode.PathDenied, `${input} is outside the workspace`);
    }
    throw toResponseError(error, display);
  }
}
