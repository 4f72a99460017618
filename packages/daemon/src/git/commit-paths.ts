import { DaemonErrorCode } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError } from "../rpc/errors";
import type { GitRun, RunGitOptions } from "./run-git";

export type Git = (
  args: string[],
  signal: AbortSignal,
  more?: Omit<RunGitOptions, "root" | "signal">,
) => Promise<GitRun>;

/** Paths are the turn's own names, never globs: `*.ts` in a file name means that file alone. */
const LITERAL = "--literal-pathspecs";

/**
 * Which of `paths` differ from HEAD in the work tree (tracked ones, and untracked ones git does not
 * ignore): `git status --porcelain -z` of just those paths.
 */
async function differing(git: Git, paths: string[], signal: AbortSignal) {
  const run = await git(
    [LITERAL, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", ...paths],
    signal,
  );
  const changed: string[] = [];
  const untracked: string[] = [];
  for (const entry of run.stdout.split("\0")) {
    if (entry.length < 4) continue;
    const path = entry.slice(3);
    changed.push(path);
    if (entry.startsWith("??")) untracked.push(path);
  }
  return { changed, untracked };
}

/**
 * Makes `branch` at HEAD and switches to it, after `git check-ref-format --branch` agrees that it
 * names a branch as it is (`@{-1}` and the like expand to another name: refused).
 */
async function createBranch(git: Git, branch: string, signal: AbortSignal) {
  const checked = await git(["check-ref-format", "--branch", branch], signal, { okCodes: [0, 1, 128] });
  if (checked.code !== 0 || checked.stdout.trim() !== branch) {
    throw daemonError(DaemonErrorCode.Git, `"${branch}" is not a valid branch name`);
  }
  await git(["switch", "--quiet", "--create", branch], signal);
}

/**
 * `git.commitPaths`: one commit of exactly `paths` as they are in the work tree, on a new branch
 * when asked. It is `git commit --only -- <paths>`: git itself takes the index lock for the whole
 * commit, commits those paths from the work tree, updates just their index entries, and leaves
 * whatever else a person staged staged and uncommitted (a temporary index would take five git
 * processes and a compare-and-swap of HEAD to do the same). New files are first added with
 * `--intent-to-add`, which `--only` needs to know them; a failed commit takes that back.
 */
export function commitPaths(git: Git): DaemonHandler<"git.commitPaths"> {
  return async ({ paths, message, author, trailers, branch }, signal) => {
    const { changed, untracked } = await differing(git, paths, signal);
    if (changed.length === 0) {
      throw daemonError(
        DaemonErrorCode.Git,
        "these files no longer differ from the last commit: nothing to commit",
      );
    }
    if (branch !== undefined) await createBranch(git, branch, signal);
    const identity = ["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`];
    try {
      if (untracked.length > 0) await git([LITERAL, "add", "--intent-to-add", "--", ...untracked], signal);
      await git(
        [
          LITERAL,
          "commit",
          "--no-verify",
          "--quiet",
          "--cleanup=strip",
          "--only",
          "-F",
          "-",
          ...trailers.flatMap((t) => ["--trailer", t]),
          "--",
          ...changed,
        ],
        signal,
        { input: message, config: identity },
      );
    } catch (error) {
      // Back to where the person was: no intent-to-add entries, no half-made branch.
      const undo = new AbortController().signal;
      if (untracked.length > 0) {
        await git([LITERAL, "reset", "--quiet", "--", ...untracked], undo, { okCodes: [0, 1, 128] });
      }
      if (branch !== undefined) {
        await git(["switch", "--quiet", "-"], undo, { okCodes: [0, 128] });
        await git(["branch", "--quiet", "-D", branch], undo, { okCodes: [0, 1, 128] });
      }
      throw error;
    }
    const shown = await git(["log", "-1", "--format=%H%x1f%s"], signal);
    const [hash = "", summary = ""] = shown.stdout.trim().split("\x1f");
    return { hash, summary: summary.slice(0, 4000), paths: changed, branch: branch ?? null };
  };
}
