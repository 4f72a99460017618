import path from "node:path";
import { type GitIndexText, MAX_GIT_INDEX_TEXT_BYTES } from "@coder/protocol";
import type { GitRun, RunGitOptions } from "./run-git";

type Git = (
  args: string[],
  signal: AbortSignal,
  more?: Omit<RunGitOptions, "root" | "signal">,
) => Promise<GitRun>;

const NOT_A_REPOSITORY = /not a git repository/i;
/** A regular file's modes in the index (a symlink is 120000, a submodule 160000). */
const REGULAR_FILE = /^100(644|755)$/;
/** git's own test for binary content: a NUL among the first 8000 bytes. */
const BINARY_PROBE_CHARS = 8000;

/**
 * The file's version in the index (`git show :path`), or why there is none. The index entry is
 * looked up first (`ls-files --stage`), so an untracked, conflicted, linked or oversized file is
 * answered without reading its blob.
 */
export async function indexText(
  git: Git,
  root: string,
  file: string,
  signal: AbortSignal,
): Promise<GitIndexText> {
  let listed: GitRun;
  try {
    listed = await git(["ls-files", "--stage", "-z", "--", file], signal);
  } catch (error) {
    if (error instanceof Error && NOT_A_REPOSITORY.test(error.message)) return { state: "outside" };
    throw error;
  }
  // git names entries relative to the repository's top, which is the workspace root.
  const wanted = path.relative(root, path.resolve(root, file));
  const entries = listed.stdout
    .split("\0")
    .filter((line) => line !== "")
    .map((line) => {
      const [meta = "", name = ""] = line.split("\t");
      const [mode = "", object = "", stage = ""] = meta.split(" ");
      return { mode, object, stage, name };
    });
  const own = entries.filter((entry) => entry.name === wanted);
  const [entry] = own;
  // A folder's path lists the files under it.
  if (entry === undefined) return { state: entries.length > 0 ? "not_a_file" : "untracked" };
  if (own.some((e) => e.stage !== "0")) return { state: "unmerged" };
  if (!REGULAR_FILE.test(entry.mode)) return { state: "not_a_file" };
  const size = Number((await git(["cat-file", "-s", entry.object], signal)).stdout.trim());
  if (!(size <= MAX_GIT_INDEX_TEXT_BYTES)) return { state: "too_large" };
  const blob = await git(["cat-file", "blob", entry.object], signal, {
    maxOutputBytes: MAX_GIT_INDEX_TEXT_BYTES,
  });
  if (blob.truncated) return { state: "too_large" };
  if (blob.stdout.slice(0, BINARY_PROBE_CHARS).includes("\0")) return { state: "binary" };
  return { state: "tracked", text: blob.stdout };
}
