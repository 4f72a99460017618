import {
  type DaemonMethod,
  GIT_NETWORK_DEADLINE_MS,
  type GitBranches,
  type GitLogEntry,
  MAX_GIT_BRANCHES,
  MAX_GIT_PATCH_CHARS,
} from "@coder/protocol";
import type { DaemonHandler } from "../rpc/dispatch";
import { commitPaths } from "./commit-paths";
import { conflictStages } from "./conflict-stages";
import type { AskCredential } from "./credential-channel";
import { indexText } from "./index-text";
import { refuseWithoutRemote } from "./no-remote";
import { checkPatchPaths } from "./patch-paths";
import { gitMessage, type RunGitOptions, runGit } from "./run-git";
import { parseStatus } from "./status-parse";

export interface GitMethodsOptions {
  root: string;
  /** Sends `git.progress` for the call `callId`. */
  progress(callId: string, line: string): void;
  /** Asks the service for a login when git of a call with a credential id wants one (credential-channel.ts). */
  askCredential?: AskCredential;
  log?: (message: string) => void;
}

type GitMethod = Extract<DaemonMethod, `git.${string}`>;

const NOT_A_REPOSITORY = /not a git repository/i;
/** Fields of a log record, and records, apart: unit and record separators, which subjects do not hold. */
const UNIT = "\x1f";
const RECORD = "\x1e";

/** git.* of the daemon contract: the workspace's own repository through runGit. */
export function gitMethods({ root, progress, askCredential, log }: GitMethodsOptions): {
  [M in GitMethod]: DaemonHandler<M>;
} {
  const git = (args: string[], signal: AbortSignal, more: Omit<RunGitOptions, "root" | "signal"> = {}) =>
    runGit(args, { root, signal, ...more });

  const hasHead = async (signal: AbortSignal) =>
    (await git(["rev-parse", "-q", "--verify", "HEAD"], signal, { okCodes: [0, 1] })).code === 0;

  const remoteCall =
    (command: "fetch" | "pull" | "push") =>
    async (
      params: {
        remote?: string;
        branch?: string;
        setUpstream: boolean;
        callId: string;
        credentialRequestId?: string;
      },
      signal: AbortSignal,
    ) => {
      const flags =
        command === "pull"
          ? ["--no-rebase", "--no-edit"]
          : command === "push" && params.setUpstream
            ? ["--set-upstream"]
            : [];
      const named =
        params.remote !== undefined || params.branch !== undefined || flags.includes("--set-upstream");
      const branch = params.branch ?? (command === "push" && params.setUpstream ? "HEAD" : undefined);
      const target = named ? [params.remote ?? "origin", ...(branch ? [branch] : [])] : [];
      await refuseWithoutRemote((args, more) => git(args, signal, more), command, target[0]);
      const run = await git([command, "--progress", ...flags, ...target], signal, {
        deadlineMs: GIT_NETWORK_DEADLINE_MS,
        // The acting person's login, if any, asked for with the service's one-shot id of this call.
        credentials:
          params.credentialRequestId && askCredential
            ? { requestId: params.credentialRequestId, ask: askCredential }
            : undefined,
        ...(log ? { log } : {}),
        onProgress: (line: string) => progress(params.callId, line),
      });
      return { message: gitMessage(run.stderr, `git ${command} finished`).slice(-8000) };
    };

  return {
    "git.status": async (_params, signal) => {
      try {
        const run = await git(
          ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"],
          signal,
        );
        return parseStatus(run.stdout, run.truncated);
      } catch (error) {
        if (!(error instanceof Error && NOT_A_REPOSITORY.test(error.message))) throw error;
        return { ...parseStatus(""), repository: false };
      }
    },
    "git.diff": async ({ path, staged }, signal) => {
      const flags = ["--no-ext-diff", "--no-textconv", "--no-color", "--find-renames"];
      const bound = { maxOutputBytes: MAX_GIT_PATCH_CHARS };
      let run = await git(["diff", ...flags, ...(staged ? ["--cached"] : []), "--", path], signal, bound);
      if (!staged && run.stdout === "") {
        // An untracked file: git diff shows nothing, so it is compared with nothing (git's own name for it).
        const listed = await git(["ls-files", "-z", "--others", "--exclude-standard", "--", path], signal);
        const untracked = listed.stdout.split("\0")[0];
        if (untracked) {
          run = await git(["diff", ...flags, "--no-index", "--", "/dev/null", untracked], signal, {
            ...bound,
            okCodes: [0, 1],
          });
        }
      }
      return { path, staged, patch: run.stdout, truncated: run.truncated };
    },
    "git.stage": async ({ paths, patch }, signal) => {
      if (patch !== undefined) {
        await checkPatchPaths(patch, paths, { root, signal });
        await git(["apply", "--cached", "-"], signal, { input: patch });
      } else await git(["add", "--all", "--", ...paths], signal);
      return { paths };
    },
    "git.unstage": async ({ paths, patch }, signal) => {
      if (patch !== undefined) {
        await checkPatchPaths(patch, paths, { root, signal });
        await git(["apply", "--cached", "--reverse", "-"], signal, { input: patch });
      } else if (await hasHead(signal)) await git(["reset", "--quiet", "--", ...paths], signal);
      else await git(["rm", "--cached", "--quiet", "-r", "--ignore-unmatch", "--", ...paths], signal);
      return { paths };
    },
    "git.discard": async ({ paths }, signal) => {
      const listed = await git(["ls-files", "-z", "--others", "--exclude-standard", "--", ...paths], signal);
      const untracked = listed.stdout.split("\0").filter((p) => p !== "");
      if (untracked.length > 0) await git(["clean", "--force", "--quiet", "--", ...untracked], signal);
      const untrackedSet = new Set(untracked);
      const tracked = paths.filter((p) => !untrackedSet.has(p.replace(/^\.\//, "")));
      if (tracked.length > 0) {
        // Only paths git knows: one that was just cleaned, or never existed, is not an error here.
        const known = await git(["ls-files", "-z", "--", ...tracked], signal);
        const files = known.stdout.split("\0").filter((p) => p !== "");
        if (files.length > 0) await git(["checkout", "--quiet", "--", ...files], signal);
      }
      return { paths };
    },
    "git.commit": async ({ message, amend, author }, signal) => {
      const identity = ["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`];
      await git(
        ["commit", "--no-verify", "--quiet", "--cleanup=strip", "-F", "-", ...(amend ? ["--amend"] : [])],
        signal,
        { input: message, config: identity },
      );
      const shown = await git(["log", "-1", `--format=%H${UNIT}%s`], signal);
      const [hash = "", summary = ""] = shown.stdout.trim().split(UNIT);
      return { hash, summary: summary.slice(0, 4000) };
    },
    "git.commitPaths": commitPaths(git),
    "git.conflict": conflictStages(git),
    "git.branches": async (_params, signal): Promise<GitBranches> => {
      const format = ["%(refname)", "%(objectname)", "%(upstream:short)", "%(HEAD)", "%(symref)"].join(UNIT);
      const run = await git(
        [
          "for-each-ref",
          `--format=${format}`,
          `--count=${MAX_GIT_BRANCHES + 1}`,
          "refs/heads",
          "refs/remotes",
        ],
        signal,
      );
      const branches: GitBranches["branches"] = [];
      for (const line of run.stdout.split("\n")) {
        const [ref = "", head = "", upstream = "", current = "", symref = ""] = line.split(UNIT);
        // refs/remotes/origin/HEAD only points at another branch.
        if (ref === "" || symref !== "") continue;
        const remote = ref.startsWith("refs/remotes/");
        const name = ref.slice(remote ? "refs/remotes/".length : "refs/heads/".length);
        branches.push({ name, remote, head, upstream: upstream || null, current: current === "*" });
      }
      const truncated = branches.length > MAX_GIT_BRANCHES;
      return { branches: branches.slice(0, MAX_GIT_BRANCHES), truncated };
    },
    "git.checkout": async ({ branch, create }, signal) => {
      await git(["switch", "--quiet", ...(create ? ["--create"] : []), branch], signal);
      return { branch };
    },
    "git.log": async ({ limit }, signal) => {
      if (!(await hasHead(signal))) return { commits: [] };
      const format = ["%H", "%P", "%an", "%ae", "%at", "%s"].join(UNIT) + RECORD;
      const run = await git(
        ["log", `--max-count=${limit}`, `--format=${format}`, "--no-show-signature"],
        signal,
      );
      const commits: GitLogEntry[] = [];
      for (const record of run.stdout.split(RECORD)) {
        const [hash, parents, authorName, authorEmail, at, ...subject] = record
          .replace(/^\n/, "")
          .split(UNIT);
        if (!hash || at === undefined) continue;
        commits.push({
          hash,
          parents: parents ? parents.split(" ") : [],
          authorName: authorName ?? "",
          authorEmail: authorEmail ?? "",
          date: Number(at) * 1000,
          subject: subject.join(UNIT).slice(0, 4000),
        });
      }
      return { commits };
    },
    "git.indexText": ({ path }, signal) => indexText(git, root, path, signal),
    "git.fetch": remoteCall("fetch"),
    "git.pull": remoteCall("pull"),
    "git.push": remoteCall("push"),
  };
}
