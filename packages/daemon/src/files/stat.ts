import { lstat, stat } from "node:fs/promises";
import path from "node:path";
import type { DaemonRequests } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";
import { fileFacts } from "./version";

type StatResult = DaemonRequests["fs.stat"]["result"];

/** Describes what `path` names, following a symlink only when it stays inside the workspace. */
export async function statPath(root: string, input: string): Promise<StatResult> {
  const { abs, display } = await resolveTarget(root, input);
  try {
    const link = await lstat(path.resolve(root, input));
    const target = await stat(abs, { bigint: true });
    return {
      path: display,
      isDir: target.isDirectory(),
      isSymlink: link.isSymbolicLink(),
      ...fileFacts(target),
    };
  } catch (error) {
    throw toResponseError(error, display);
  }
}

export const statMethod =
  (root: string): DaemonHandler<"fs.stat"> =>
  (params) =>
    statPath(root, params.path);
