import { mkdir } from "node:fs/promises";
import { DaemonErrorCode } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";
import { lstatOrUndefined } from "./probe";

/** Creates a folder and any missing parents; refuses when something already has that name. */
export async function makeFolder(root: string, input: string): Promise<{ path: string }> {
  const { abs, display } = await resolveTarget(root, input, { forWrite: true });
  try {
    if (await lstatOrUndefined(abs)) throw daemonError(DaemonErrorCode.Exists, `${display} already exists`);
    await mkdir(abs, { recursive: true });
    return { path: display };
  } catch (error) {
    throw toResponseError(error, display);
  }
}

export const mkdirMethod =
  (root: string): DaemonHandler<"fs.mkdir"> =>
  (params) =>
    makeFolder(root, params.path);
