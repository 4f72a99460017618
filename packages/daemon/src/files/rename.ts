import { mkdir, rename } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveEntry } from "./paths";
import { lstatOrUndefined } from "./probe";

function isStrictlyInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/**
 * Renames or moves an entry inside the workspace. A symlink is moved as a link. The target must
 * not exist (nothing is overwritten silently); its missing parent folders are created.
 */
export async function renameEntry(
  root: string,
  fromInput: string,
  toInput: string,
): Promise<{ from: string; to: string }> {
  const from = await resolveEntry(root, fromInput);
  const to = await resolveEntry(root, toInput);
  if (from.abs === root)
    throw daemonError(DaemonErrorCode.PathDenied, "the workspace root cannot be renamed");
  if (isStrictlyInside(from.abs, to.abs)) {
    throw daemonError(DaemonErrorCode.Io, `${from.display} cannot be moved into itself`);
  }
  try {
    if (!(await lstatOrUndefined(from.abs))) {
      throw daemonError(DaemonErrorCode.NotFound, `${from.display} does not exist`);
    }
    if (await lstatOrUndefined(to.abs))
      throw daemonError(DaemonErrorCode.Exists, `${to.display} already exists`);
    await mkdir(path.dirname(to.abs), { recursive: true });
    await rename(from.abs, to.abs);
    return { from: from.display, to: to.display };
  } catch (error) {
    throw toResponseError(error, from.display);
  }
}

export const renameMethod =
  (root: string): DaemonHandler<"fs.rename"> =>
  (params) =>
    renameEntry(root, params.from, params.to);
