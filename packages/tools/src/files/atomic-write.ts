import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync } from "node:fs";
import { chmod, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

function holds(absolute: string, expected: Buffer | string): boolean {
  try {
    return typeof expected === "string"
      ? readFileSync(absolute, "utf8") === expected
      : readFileSync(absolute).equals(expected);
  } catch {
    return false;
  }
}

/**
 * Writes `content` to `absolute` (its folder must exist) through a temporary file beside it and a
 * rename, so no reader ever sees half a file; an existing file keeps its mode. With
 * `unlessChanged`, only while the file still holds those bytes or that UTF-8 text (null: while
 * there is no file), which is checked in one synchronous step with the rename: a change someone
 * made since it was read (a person's typing written back, a shell) is never overwritten. Returns
 * false, having written nothing, when the file changed.
 */
export async function writeFileAtomically(
  absolute: string,
  content: string,
  unlessChanged?: Buffer | string | null,
): Promise<boolean> {
  const mode = await stat(absolute).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const temporary = path.join(
    path.dirname(absolute),
    `.${path.basename(absolute)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temporary, content);
    if (mode !== undefined) await chmod(temporary, mode);
    if (unlessChanged === undefined) await rename(temporary, absolute);
    else if (unlessChanged === null) {
      // A hard link never replaces a file someone created meanwhile.
      try {
        linkSync(temporary, absolute);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
    } else {
      if (!holds(absolute, unlessChanged)) return false;
      renameSync(temporary, absolute);
    }
    return true;
  } finally {
    await rm(temporary, { force: true });
  }
}
