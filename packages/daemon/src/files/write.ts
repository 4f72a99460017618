import { createHash, randomBytes } from "node:crypto";
import { type BigIntStats, lstatSync, readFileSync, renameSync } from "node:fs";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode, type WriteResult } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";
import { lstatOrUndefined } from "./probe";
import { fileFacts } from "./version";
import { holdWriteForTest } from "./write-hold";

/** What the file must still be for the write to go ahead; nothing given: write unconditionally. */
export interface WriteCondition {
  /** The version (modification time and size) it was read at. */
  expectedVersion?: string;
  /** The SHA-256 (base64url) of the bytes it must hold: exact, whatever the clock's resolution. */
  expectedHash?: string;
}

function lstatNow(abs: string): BigIntStats | undefined {
  try {
    return lstatSync(abs, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Synchronous, so that no other work of this process runs between it and the rename after it. */
function checkCondition(display: string, abs: string, condition: WriteCondition): void {
  const current = lstatNow(abs);
  if (!current) {
    throw daemonError(
      DaemonErrorCode.Conflict,
      `${display} was deleted after it was read; nothing was saved`,
    );
  }
  const changed =
    (condition.expectedVersion !== undefined && fileFacts(current).version !== condition.expectedVersion) ||
    (condition.expectedHash !== undefined &&
      createHash("sha256").update(readFileSync(abs)).digest("base64url") !== condition.expectedHash);
  if (changed) {
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
 * A conditional write checks the file once before its work and again right before the rename, in
 * one synchronous step with it: a change made meanwhile (a `sed -i`, the agent's edit) makes it a
 * conflict instead of being overwritten.
 */
export async function writeWorkspaceFile(
  root: string,
  input: string,
  content: string,
  condition: WriteCondition = {},
): Promise<WriteResult> {
  const { abs, display } = await resolveTarget(root, input, { forWrite: true });
  const temp = path.join(path.dirname(abs), `.${path.basename(abs)}.${randomBytes(6).toString("hex")}.tmp`);
  const conditional = condition.expectedVersion !== undefined || condition.expectedHash !== undefined;
  try {
    const current = await lstatOrUndefined(abs);
    if (current?.isDirectory()) throw daemonError(DaemonErrorCode.IsDirectory, `${display} is a folder`);
    if (current && !current.isFile())
      throw daemonError(DaemonErrorCode.Io, `${display} is not a regular file`);
    if (conditional) {
      checkCondition(display, abs, condition);
      await holdWriteForTest();
    }

    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(temp, content, { flag: "wx" });
    // The umask applied at creation; set the old mode explicitly so e.g. a script stays executable.
    if (current) await chmod(temp, Number(current.mode & 0o7777n));
    // The facts of what this write put there (a rename keeps them), not of a later writer's file.
    const written = await stat(temp, { bigint: true });
    if (conditional) {
      checkCondition(display, abs, condition);
      renameSync(temp, abs);
    } else await rename(temp, abs);
    return { path: display, ...fileFacts(written) };
  } catch (error) {
    await rm(temp, { force: true });
    throw toResponseError(error, display);
  }
}

export const writeMethod =
  (root: string): DaemonHandler<"fs.write"> =>
  ({ path, content, ...condition }) =>
    writeWorkspaceFile(root, path, content, condition);
