import { DaemonErrorCode, MAX_GIT_PATCH_CHARS } from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError } from "../rpc/errors";
import type { Git } from "./commit-paths";

/** The index stages of a conflicted file: 1 the common ancestor, 2 ours (HEAD), 3 theirs. */
const STAGES = { base: 1, ours: 2, theirs: 3 } as const;

/**
 * `git.conflict`: a conflicted file's three versions from the index (`git show :N:path`), each
 * null when that side has no such file (deleted there, or added on one side only) and cut at
 * MAX_GIT_PATCH_CHARS. A file without a conflict is refused.
 */
export function conflictStages(git: Git): DaemonHandler<"git.conflict"> {
  return async ({ path }, signal) => {
    const show = async (stage: number) => {
      const run = await git(["show", "--no-textconv", `:${stage}:${path}`], signal, {
        okCodes: [0, 128],
        maxOutputBytes: MAX_GIT_PATCH_CHARS,
      });
      return run.code === 0
        ? { text: run.stdout.slice(0, MAX_GIT_PATCH_CHARS), truncated: run.truncated }
        : null;
    };
    const [base, ours, theirs] = await Promise.all([
      show(STAGES.base),
      show(STAGES.ours),
      show(STAGES.theirs),
    ]);
    if (ours === null && theirs === null) {
      throw daemonError(DaemonErrorCode.Git, `${path} has no conflict`);
    }
    return {
      path,
      base: base?.text ?? null,
      ours: ours?.text ?? null,
      theirs: theirs?.text ?? null,
      truncated: [base, ours, theirs].some((side) => side?.truncated === true),
    };
  };
}
