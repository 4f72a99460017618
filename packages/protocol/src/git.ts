import { z } from "zod";
import { answeredPath, fileVersion, workspacePath } from "./files";
import { entityId } from "./session";
import { workspaceId } from "./workspace";

/**
 * Source control: the workspace's own repository through the daemon's `git` (git.* methods of
 * daemon.ts, the `git` tRPC router). What comes back was written by a repository's author and a
 * container's programs, so every list and text below has a bound and says when it was reached.
 */

/** A status lists at most this many files; past it the answer is `truncated`. */
export const MAX_GIT_STATUS_FILES = 20_000;
/** A diff or a patch to stage is at most this long (characters); a longer diff is cut and says so. */
export const MAX_GIT_PATCH_CHARS = 4 * 1024 * 1024;
/** At most this many branches (local and remote) are listed. */
export const MAX_GIT_BRANCHES = 2000;
/** A log answers at most this many commits. */
export const MAX_GIT_LOG = 500;
/** At most this many paths per stage, unstage or discard. */
export const MAX_GIT_PATHS = 1000;
/** A `git.changed` names at most this many entries of `.git` (HEAD, index, refs/heads/main, ...). */
export const MAX_GIT_CHANGED_ENTRIES = 64;
/** A fetch, pull or push is stopped after this long. */
export const GIT_NETWORK_DEADLINE_MS = 5 * 60_000;
/** A commit message is at most this long. */
export const MAX_COMMIT_MESSAGE_CHARS = 64 * 1024;
/** A line of git's progress or message. */
const MAX_GIT_LINE_CHARS = 1000;

/** A commit or object id: SHA-1 or SHA-256. */
export const gitObjectId = z.string().regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, "not a git object id");

/**
 * A branch name as a person types it: git's own rules (check-ref-format) are checked by git; this
 * refuses what could be read as an option or a path outside refs.
 */
export const gitBranchName = z
  .string()
  .min(1, "name the branch")
  .max(255, "a branch name is at most 255 characters")
  .refine((name) => !/^[-+]/.test(name), "a branch name cannot start with - or +")
  .refine((name) => !/[\0-\x20\x7f~^:?*[\\]/.test(name) && !name.includes(".."), "not a valid branch name");

/** A remote's name (origin, upstream, ...), never a URL. */
export const gitRemoteName = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/, "name a remote (such as origin)");

/**
 * One letter of a status, for the index or the work tree, as in `git status --porcelain=v2`:
 * `.` unchanged, M modified, T type changed, A added, D deleted, R renamed, C copied, U unmerged,
 * `?` untracked.
 */
const statusLetter = z.enum([".", "M", "T", "A", "D", "R", "C", "U", "?"]);

export const gitFileStatus = z.object({
  path: answeredPath,
  /** A rename's or copy's source. */
  origPath: answeredPath.optional(),
  kind: z.enum(["changed", "renamed", "unmerged", "untracked"]),
  index: statusLetter,
  worktree: statusLetter,
});
export type GitFileStatus = z.infer<typeof gitFileStatus>;

export const gitStatus = z.object({
  /** False when the workspace is not a git repository (nothing else is then set). */
  repository: z.boolean(),
  /** The current branch; null when HEAD is detached. */
  branch: z.string().max(1000).nullable(),
  /** The commit HEAD is on; null before the first commit. */
  head: gitObjectId.nullable(),
  upstream: z.string().max(1000).nullable(),
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  files: z.array(gitFileStatus).max(MAX_GIT_STATUS_FILES),
  truncated: z.boolean(),
});
export type GitStatus = z.infer<typeof gitStatus>;

export const gitDiff = z.object({
  path: answeredPath,
  staged: z.boolean(),
  /** A unified diff (`git diff`); for an untracked file, against nothing. */
  patch: z.string().max(MAX_GIT_PATCH_CHARS),
  truncated: z.boolean(),
});
export type GitDiff = z.infer<typeof gitDiff>;

export const gitBranch = z.object({
  /** `main`, or `origin/main` for a remote one. */
  name: z.string().max(1000),
  remote: z.boolean(),
  head: gitObjectId,
  upstream: z.string().max(1000).nullable(),
  current: z.boolean(),
});
export const gitBranches = z.object({
  branches: z.array(gitBranch).max(MAX_GIT_BRANCHES),
  truncated: z.boolean(),
});
export type GitBranches = z.infer<typeof gitBranches>;

export const gitLogEntry = z.object({
  hash: gitObjectId,
  parents: z.array(gitObjectId).max(64),
  authorName: z.string().max(1000),
  authorEmail: z.string().max(1000),
  /** Author date, milliseconds since the epoch. */
  date: z.number(),
  subject: z.string().max(MAX_GIT_LINE_CHARS * 4),
});
export type GitLogEntry = z.infer<typeof gitLogEntry>;

/** What a fetch, pull or push answers: git's own closing lines. */
export const gitRemoteResult = z.object({ message: z.string().max(MAX_GIT_LINE_CHARS * 8) });

export const gitCommitResult = z.object({
  hash: gitObjectId,
  summary: z.string().max(MAX_GIT_LINE_CHARS * 4),
});

/** What `git.commitTurn` and `git.branchFromTurn` answer: the commit, the files in it, the new branch. */
export const gitTurnCommitResult = gitCommitResult.extend({
  paths: z.array(answeredPath).max(MAX_GIT_PATHS),
  branch: z.string().max(1000).nullable(),
});
export type GitTurnCommitResult = z.infer<typeof gitTurnCommitResult>;

/**
 * A conflicted file's sides (the index's stages 1-3; null where that side has no such file) and
 * `result`, the file in the work tree as the merge left it (null when it is not there).
 */
export const gitConflict = z.object({
  path: answeredPath,
  base: z.string().max(MAX_GIT_PATCH_CHARS).nullable(),
  ours: z.string().max(MAX_GIT_PATCH_CHARS).nullable(),
  theirs: z.string().max(MAX_GIT_PATCH_CHARS).nullable(),
  /** A side was longer than MAX_GIT_PATCH_CHARS and is cut: resolve this file in the editor. */
  truncated: z.boolean(),
});
export const gitConflictView = gitConflict.extend({
  result: z.string().max(MAX_GIT_PATCH_CHARS).nullable(),
  /** The version of the file read as `result`: a write of the resolution sends it back (files.write). */
  version: fileVersion.nullable(),
});
export type GitConflictView = z.infer<typeof gitConflictView>;

/** What a panel hears about a workspace's repository: refetch (`changed`), or a line of a running fetch/pull/push. */
export const gitEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("changed") }),
  z.object({
    type: z.literal("progress"),
    progressId: z.string().max(64),
    line: z.string().max(MAX_GIT_LINE_CHARS),
  }),
  z.object({ type: z.literal("resync") }),
]);
export type GitEvent = z.infer<typeof gitEvent>;

const pathList = z.array(workspacePath).min(1, "name a file").max(MAX_GIT_PATHS);
/** Chosen by the caller to recognise its own call's progress lines in `git.events`. */
const progressId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "a progress id is 1-64 letters, digits, - or _")
  .optional();

// The procedures' inputs (trpc/routers/git.ts).
export const gitStatusInput = z.object({ workspaceId });
export const gitDiffInput = z.object({
  workspaceId,
  path: workspacePath,
  staged: z.boolean().default(false),
});
/** Whole files (`paths`), or the hunks of `patch` (a unified diff touching only `paths`). */
export const gitStageInput = z.object({
  workspaceId,
  paths: pathList,
  patch: z.string().min(1).max(MAX_GIT_PATCH_CHARS).optional(),
});
export const gitDiscardInput = z.object({ workspaceId, paths: pathList });
export const gitCommitInput = z.object({
  workspaceId,
  message: z
    .string()
    .max(MAX_COMMIT_MESSAGE_CHARS)
    .refine((m) => m.trim() !== "", "write a commit message"),
  amend: z.boolean().default(false),
});
const turnCommitMessage = z
  .string()
  .max(MAX_COMMIT_MESSAGE_CHARS)
  .refine((m) => m.trim() !== "", "write a commit message")
  .optional();
/** An agent turn: the message the model proposes for a commit of its files. */
export const gitProposeTurnMessageInput = z.object({ workspaceId, sessionId: entityId, turnId: entityId });
/** One commit of the files an agent turn changed; without `message` the model proposes one. */
export const gitCommitTurnInput = gitProposeTurnMessageInput.extend({ message: turnCommitMessage });
/** The same on a new branch made at HEAD (and checked out). */
export const gitBranchFromTurnInput = gitCommitTurnInput.extend({ branch: gitBranchName });
export const gitConflictInput = z.object({ workspaceId, path: workspacePath });
export const gitBranchesInput = z.object({ workspaceId });
export const gitCheckoutInput = z.object({
  workspaceId,
  branch: gitBranchName,
  create: z.boolean().default(false),
});
export const gitLogInput = z.object({
  workspaceId,
  limit: z.number().int().min(1).max(MAX_GIT_LOG).default(50),
});
export const gitRemoteInput = z.object({
  workspaceId,
  remote: gitRemoteName.optional(),
  branch: gitBranchName.optional(),
  setUpstream: z.boolean().default(false),
  progressId,
});
export const gitEventsInput = z.object({ workspaceId, lastEventId: z.string().max(100).nullish() });
