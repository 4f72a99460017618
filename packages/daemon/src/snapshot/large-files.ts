import { lstat } from "node:fs/promises";
import path from "node:path";
import { type GitPlace, nulFields, runGit } from "./git";

/** Files larger than this are not snapshotted (build outputs, data sets, media). */
export const MAX_SNAPSHOT_FILE_BYTES = 2 * 1024 * 1024;

const STAT_BATCH = 64;

/**
 * The workspace files over MAX_SNAPSHOT_FILE_BYTES among those the next `git add` would hash:
 * untracked ones (not .gitignore'd) and tracked ones changed since the last snapshot. The store's
 * own exclude file is left out of the listing on purpose, so a file that shrank is seen again.
 */
export async function findLargeFiles(place: GitPlace): Promise<string[]> {
  const { stdout } = await runGit(place, [
    "ls-files",
    "-z",
    "--others",
    "--modified",
    "--exclude-per-directory=.gitignore",
  ]);
  const candidates = [...new Set(nulFields(stdout))];
  const large: string[] = [];
  for (let i = 0; i < candidates.length; i += STAT_BATCH) {
    const batch = candidates.slice(i, i + STAT_BATCH);
    const sizes = await Promise.all(
      batch.map((file) =>
        lstat(path.join(place.workTree, file)).then(
          (s) => (s.isFile() ? s.size : 0),
          () => 0, // deleted since: nothing to hash
        ),
      ),
    );
    batch.forEach((file, j) => {
      if ((sizes[j] ?? 0) > MAX_SNAPSHOT_FILE_BYTES) large.push(file);
    });
  }
  return large;
}

/** A gitignore line that matches exactly this path from the root (glob characters escaped). */
export function literalExcludePattern(file: string): string {
  const escaped = file.replace(/[\\*?[\]]/g, (c) => `\\${c}`).replace(/ $/, "\\ ");
  return `/${escaped}`;
}
