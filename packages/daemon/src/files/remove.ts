import { rm } from "node:fs/promises";
import { DaemonErrorCode } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveEntry } from "./paths";
import { lstatOrUndefined } from "./probe";

/** Deletes a file, a folder with everything in it, or a symlink (never what it points to). */
export async function removeEntry(root: string, input: string): Promise<{ path: string }> {
  const { abs, display } = await resolveEntry(root, input);
  if (abs === root) throw daemonError(DaemonErrorCode.PathDenied, "the workspace root cannot be deleted");
  try {
    if (!(await lstatOrUndefined(abs)))
      throw daemonError(DaemonErrorCode.NotFound, `${display} does not exist`);
    await rm(abs, { recursive: true });
    return { path: display };
  } catch (error) {
    throw toResponseError(error, display);
  }
}

export const deleteMethod =
  (root: string): DaemonHandler<"fs.delete"> =>
  (params) =>
    removeEntry(root, params.path);
