import type { BigIntStats } from "node:fs";
import { lstat } from "node:fs/promises";

/** The entry's own stats (a symlink is not followed), or undefined when nothing has that name. */
export async function lstatOrUndefined(abs: string): Promise<BigIntStats | undefined> {
  try {
    return await lstat(abs, { bigint: true });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined;
    throw error;
  }
}
