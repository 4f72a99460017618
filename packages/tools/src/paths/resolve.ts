import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { ToolError } from "../framework/types";

/** True when `candidate` is `root` or lies under it (both absolute, compared lexically). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Resolves a tool's path argument to an absolute path inside `root` (an absolute real path).
 * Relative paths are taken from the root; absolute ones must lie inside it. The check is made on
 * the real path of the deepest existing ancestor, so `..`, absolute paths elsewhere and symlinks
 * that lead outside are all refused with `permission_denied`. For writes the target itself must
 * not be a symlink, so a write never follows a link (even one pointing inside) to another file.
 * `extraRoots` are further real paths that may be read (e.g. the folder of spilled tool output).
 */
export async function resolveInWorkspace(
  root: string,
  input: string,
  options: { forWrite?: boolean; extraRoots?: string[] } = {},
): Promise<string> {
  if (input.includes("\0")) throw new ToolError("invalid_args", "path contains a NUL character");
  const roots = [root, ...(options.extraRoots ?? [])];
  const lexical = path.resolve(root, input === "" ? "." : input);
  const allowedRoot = roots.find((r) => isInside(r, lexical));
  if (!allowedRoot) throw denied(input);

  const resolved = realLocation(lexical, input);
  if (!roots.some((r) => isInside(r, resolved))) throw denied(input);

  if (options.forWrite && lstatSync(lexical, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new ToolError("permission_denied", `${input} is a symbolic link; write to its target path instead`);
  }
  return resolved;
}

/** Linux gives up on a path after this many symbolic links (ELOOP); so do we. */
const MAX_LINKS = 40;

/**
 * Where an absolute path really leads, even when it does not exist yet: the real path of its
 * deepest existing ancestor plus the missing rest. A dangling symlink on the way is followed by
 * hand (realpath cannot), since writing through it would create its target, wherever that is.
 */
function realLocation(lexical: string, input: string): string {
  let target = lexical;
  for (let links = 0; links <= MAX_LINKS; links++) {
    // The metadata calls are synchronous on purpose: they are local and take microseconds, and
    // every tool call makes them, so a thread-pool round trip each would dominate a small read.
    let existing = target;
    const rest: string[] = [];
    while (!lstatSync(existing, { throwIfNoEntry: false })) {
      const parent = path.dirname(existing);
      if (parent === existing) throw denied(input);
      rest.unshift(path.basename(existing));
      existing = parent;
    }
    try {
      return path.join(realpathSync.native(existing), ...rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    // `existing` is a link whose target is missing (its folder resolved, or lstat had failed).
    const folder = realpathSync.native(path.dirname(existing));
    target = path.join(path.resolve(folder, readlinkSync(existing)), ...rest);
  }
  throw new ToolError("invalid_args", `${input} goes through too many symbolic links`);
}

function denied(input: string): ToolError {
  return new ToolError(
    "permission_denied",
    `${input} is outside the workspace`,
    "use a path relative to the workspace root",
  );
}

/** The path shown to the model and the UI: relative to the root, with forward slashes. */
export function displayPath(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  return rel === "" ? "." : rel.split(path.sep).join("/");
}
