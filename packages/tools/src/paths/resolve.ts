import { lstatSync, realpathSync } from "node:fs";
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

  // Walk up to the deepest ancestor that exists and check where it really is. The metadata calls
  // are synchronous on purpose: they are local and take microseconds, and every tool call makes
  // them, so a thread-pool round trip each would dominate a small read.
  let existing = lexical;
  const rest: string[] = [];
  while (!lstatSync(existing, { throwIfNoEntry: false })) {
    const parent = path.dirname(existing);
    if (parent === existing) throw denied(input);
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  const real = realpathSync.native(existing);
  const resolved = path.join(real, ...rest);
  if (!roots.some((r) => isInside(r, resolved))) throw denied(input);

  if (options.forWrite && rest.length === 0) {
    if (lstatSync(lexical).isSymbolicLink()) {
      throw new ToolError(
        "permission_denied",
        `${input} is a symbolic link; write to its target path instead`,
      );
    }
  }
  return resolved;
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
