import { chmod, mkdir, readdir, readFile, rm, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../files/atomic-write";
import { ToolError } from "../framework/types";
import type { FileWrite } from "./types";

interface Undo {
  absolute: string;
  /** The bytes and permission bits to put back, or null when the file did not exist. */
  before: { bytes: Buffer; mode: number } | null;
}

/**
 * Writes a plan's files all or nothing: every original is read first, then each file is written
 * (through a temporary file and a rename, keeping its mode) or deleted. If any step fails, the
 * files already changed get their old bytes back, files that did not exist are removed, and so are
 * folders created on the way; then the call fails with io_error saying nothing was changed.
 */
export async function commitWrites(writes: readonly FileWrite[]): Promise<void> {
  const undo: Undo[] = [];
  for (const { absolute } of writes) undo.push({ absolute, before: await original(absolute) });

  const createdDirs: string[] = [];
  let done = 0;
  try {
    for (const write of writes) {
      if (write.content === null) await unlink(write.absolute);
      else await writeAtomically(write, write.content, createdDirs);
      done++;
    }
  } catch (error) {
    await rollBack(undo.slice(0, done + 1), createdDirs);
    const failed = writes[done]?.absolute ?? "a file";
    if (error instanceof ChangedMeanwhile) {
      throw new ToolError(
        "stale_file",
        `${path.basename(failed)} changed while the patch was being written; no file was changed`,
        "apply the patch again",
      );
    }
    throw new ToolError(
      "io_error",
      `could not write ${path.basename(failed)}: ${reason(error)}; no file was changed`,
    );
  }
}

async function original(absolute: string): Promise<Undo["before"]> {
  try {
    const bytes = await readFile(absolute);
    return { bytes, mode: (await stat(absolute)).mode & 0o7777 };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw new ToolError(
      "io_error",
      `could not read ${path.basename(absolute)}: ${reason(error)}; no file was changed`,
    );
  }
}

/** A file changed after the plan read it: writing it would overwrite someone's change. */
class ChangedMeanwhile extends Error {}

async function writeAtomically(write: FileWrite, content: string, createdDirs: string[]): Promise<void> {
  const firstCreated = await mkdir(path.dirname(write.absolute), { recursive: true });
  if (firstCreated) createdDirs.push(firstCreated);
  if (!(await writeFileAtomically(write.absolute, content, write.original))) throw new ChangedMeanwhile();
}

/** Best effort: a failure to restore one file must not stop the others being restored. */
async function rollBack(undo: Undo[], createdDirs: string[]): Promise<void> {
  for (const { absolute, before } of undo.reverse()) {
    try {
      if (before === null) await rm(absolute, { force: true });
      else {
        await writeFile(absolute, before.bytes);
        await chmod(absolute, before.mode);
      }
    } catch {
      // Nothing more can be done for this file; carry on with the rest.
    }
  }
  for (const dir of createdDirs.reverse()) await removeEmptyTree(dir);
}

/** Removes `dir` and the folders under it; rmdir refuses, as it should, if a file is left. */
async function removeEmptyTree(dir: string): Promise<void> {
  const children = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const child of children) {
    if (child.isDirectory()) await removeEmptyTree(path.join(dir, child.name));
  }
  await rmdir(dir).catch(() => {});
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
