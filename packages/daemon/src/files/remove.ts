import { rm } from "node:fs/promises";
import { DaemonErrorCode } from "@coder/protocol";
import { defineMethod } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { pathParams } from "./params";
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

export const deleteMethod = (root: string) =>
  defineMethod({ params: pathParams, run: (params) => removeEntry(root, params.path) });
