import { randomBytes } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode, type WriteResult, workspacePath } from "@coder/protocol";
import { z } from "zod";
import { defineMethod } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";
import { lstatOrUndefined } from "./probe";
import { fileFacts } from "./version";

function checkExpectedVersion(display: string, current: BigIntStats | undefined, expected: string): void {
  if (!current) {
    throw daemonError(
      DaemonErrorCode.Conflict,
      `${display} was deleted after it was read; nothing was saved`,
    );
  }
  if (fileFacts(current).version !== expected) {
    throw daemonError(
      DaemonErrorCode.Conflict,
      `${display} changed after it was read; reload it (or overwrite it) and save again`,
    );
  }
}

/**
 * Replaces a file atomically: the content goes to a temporary file in the same folder, which is
 * then renamed over the target, so no reader ever sees half a file. The file keeps its mode;
 * missing parent folders are created. The target must not be a symlink (resolveTarget refuses it).
 */
export async function writeWorkspaceFile(
  root: string,
  input: string,
  content: string,
  expectedVersion?: string,
): Promise<WriteResult> {
  const { abs, display } = await resolveTarget(root, input, { forWrite: true });
  const temp = path.join(path.dirname(abs), `.${path.basename(abs)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const current = await lstatOrUndefined(abs);
    if (current?.isDirectory()) throw daemonError(DaemonErrorCode.IsDirectory, `${display} is a folder`);
    if (current && !current.isFile())
      throw daemonError(DaemonErrorCode.Io, `${display} is not a regular file`);
    if (expectedVersion !== undefined) checkExpectedVersion(display, current, expectedVersion);

    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(temp, content, { flag: "wx" });
    // The umask applied at creation; set the old mode explicitly so e.g. a script stays executable.
    if (current) await chmod(temp, Number(current.mode & 0o7777n));
    await rename(temp, abs);
    return { path: display, ...fileFacts(await stat(abs, { bigint: true })) };
  } catch (error) {
    await rm(temp, { force: true });
    throw toResponseError(error, display);
  }
}

export const writeMethod = (root: string) =>
  defineMethod({
    params: z.object({ path: workspacePath, content: z.string(), expectedVersion: z.string().optional() }),
    run: (params) => writeWorkspaceFile(root, params.path, params.content, params.expectedVersion),
  });
