import { z } from "zod";
import {
  answeredPath,
  fileChange,
  fileVersion,
  MAX_EDITOR_FILE_BYTES,
  readResult,
  treeResult,
  workspacePath,
  writeResult,
} from "./files";
import {
  gitBranches,
  gitBranchName,
  gitCommitResult,
  gitConflict,
  gitDiff,
  gitLogEntry,
  gitRemoteName,
  gitRemoteResult,
  gitStatus,
  gitTurnCommitResult,
  MAX_COMMIT_MESSAGE_CHARS,
  MAX_GIT_CHANGED_ENTRIES,
  MAX_GIT_LOG,
  MAX_GIT_PATCH_CHARS,
  MAX_GIT_PATHS,
} from "./git";
import { gitIndexText } from "./git-index-text";
import { listeningPort, MAX_LISTENING_PORTS } from "./preview";
import {
  bytesResult,
  fileListResult,
  fileMatches,
  MAX_IMAGE_BYTES,
  MAX_LISTED_FILES,
  MAX_REPLACEMENT_CHARS,
  MAX_SEARCH_MATCHES,
  replacementPlan,
  searchSummary,
  textQuery,
} from "./search";
import { turnDiff } from "./session";
import { toolDefinition, toolResult } from "./tools";

/**
 * The JSON-RPC contract between the sandbox service and the daemon inside a workspace container
 * (Content-Length framing over the stdio of one long-lived `docker exec`), as one table of zod
 * schemas with their bounds. The daemon's dispatcher checks every request's params against it, and
 * the service's DaemonConnection checks every answer and notification against it: the daemon runs
 * beside whatever the repository runs, so what it sends is hostile input. Paths are relative to
 * the workspace root; the daemon refuses paths that leave it with code DaemonErrorCode.PathDenied.
 */
export const DAEMON_PROTOCOL_VERSION = 1;

export const DaemonErrorCode = {
  PathDenied: -32001,
  NotFound: -32002,
  Conflict: -32003,
  IsDirectory: -32004,
  NotDirectory: -32005,
  Exists: -32006,
  /** A search pattern or glob that ripgrep refuses. */
  BadPattern: -32007,
  /** Git refused or failed (nothing to commit, a rejected push, ...); the message is git's own. */
  Git: -32008,
  Io: -32010,
} as const;

/**
 * The most one tool call may carry each way (its arguments, its result, its output, one progress
 * update), and a tool list: the daemon's tools stay far below (their output is cut at 50 KB), and
 * the service cuts further for the model and for storage (agent/workspace/bounded-workspace.ts).
 */
export const MAX_TOOL_MESSAGE_CHARS = 4 * 1024 * 1024;
/** The most tools one list may offer. */
export const MAX_DAEMON_TOOLS = 256;
/** The full text of an output the service keeps in the spill folder (`tools.spill`). */
export const MAX_SPILL_BYTES = 8 * 1024 * 1024;
/** The daemon sends at most this many file changes per `fs.changed`. */
export const MAX_CHANGES_PER_NOTIFICATION = 500;
/** Linux's largest process id (PID_MAX_LIMIT). */
const MAX_PID = 4_194_304;

/** A JSON value whose text is at most `max` characters. */
function jsonWithin<T extends z.ZodType>(schema: T, max: number) {
  return schema.refine(
    (value) => (JSON.stringify(value)?.length ?? 0) <= max,
    `larger than ${max} characters`,
  );
}

/** OpenAI's rule for function names, which every provider accepts. */
export const toolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "not a tool name");
/** A snapshot is a git tree: its SHA-1 or SHA-256 hash. */
export const snapshotId = z
  .string()
  .max(64)
  .regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, "not a snapshot id");
const callId = z.string().min(1).max(256);
const searchId = z.string().min(1).max(64);
const pathList = z.array(answeredPath).max(MAX_LISTED_FILES);

const statResult = z.object({
  path: answeredPath,
  isDir: z.boolean(),
  isSymlink: z.boolean(),
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  version: fileVersion,
});

/** One method: what the service may send and what the daemon may answer. */
interface MethodContract {
  params: z.ZodType;
  result: z.ZodType;
}

const gitPaths = z.array(workspacePath).min(1).max(MAX_GIT_PATHS);
/** The paths a stage, unstage or discard acted on, as asked. */
const gitPathsDone = z.object({ paths: z.array(answeredPath).max(MAX_GIT_PATHS) });
const gitRemoteParams = z.object({
  remote: gitRemoteName.optional(),
  branch: gitBranchName.optional(),
  setUpstream: z.boolean().default(false),
  /** Names the call in its `git.progress` notifications. */
  callId,
  /** The service's one-shot id of this call, with which git's credential helper asks for a login. */
  credentialRequestId: z.string().min(1).max(64).optional(),
});

/**
 * The workspace's own repository, through its `git` under the guards of the daemon's runner
 * (packages/daemon/src/git/run-git.ts). Git's refusals answer DaemonErrorCode.Git with git's message.
 */
function gitMethods() {
  return {
    "git.status": { params: z.object({}), result: gitStatus },
    "git.diff": {
      params: z.object({ path: workspacePath, staged: z.boolean().default(false) }),
      result: gitDiff,
    },
    /** Whole files, or the hunks of `patch` (which must touch only `paths`) through `git apply --cached`. */
    "git.stage": {
      params: z.object({ paths: gitPaths, patch: z.string().min(1).max(MAX_GIT_PATCH_CHARS).optional() }),
      result: gitPathsDone,
    },
    "git.unstage": {
      params: z.object({ paths: gitPaths, patch: z.string().min(1).max(MAX_GIT_PATCH_CHARS).optional() }),
      result: gitPathsDone,
    },
    /** Tracked files get the index's content back; untracked ones are removed. */
    "git.discard": { params: z.object({ paths: gitPaths }), result: gitPathsDone },
    /** Commits the index as `author` (also the committer), hooks never run. */
    "git.commit": {
      params: z.object({
        message: z.string().min(1).max(MAX_COMMIT_MESSAGE_CHARS),
        amend: z.boolean().default(false),
        author: z.object({ name: z.string().min(1).max(256), email: z.string().min(3).max(320) }),
      }),
      result: gitCommitResult,
    },
    /**
     * One commit of exactly `paths` as they are in the work tree (`git commit --only`), leaving
     * the rest of the index alone; with `branch`, on that new branch made at HEAD.
     */
    "git.commitPaths": {
      params: z.object({
        paths: gitPaths,
        message: z.string().min(1).max(MAX_COMMIT_MESSAGE_CHARS),
        author: z.object({ name: z.string().min(1).max(256), email: z.string().min(3).max(320) }),
        trailers: z.array(z.string().min(1).max(500)).max(8).default([]),
        branch: gitBranchName.optional(),
      }),
      result: gitTurnCommitResult,
    },
    /** A conflicted file's base, ours and theirs from the index. */
    "git.conflict": { params: z.object({ path: workspacePath }), result: gitConflict },
    "git.branches": { params: z.object({}), result: gitBranches },
    "git.checkout": {
      params: z.object({ branch: gitBranchName, create: z.boolean().default(false) }),
      result: z.object({ branch: z.string().max(1000) }),
    },
    "git.log": {
      params: z.object({ limit: z.number().int().min(1).max(MAX_GIT_LOG) }),
      result: z.object({ commits: z.array(gitLogEntry).max(MAX_GIT_LOG) }),
    },
    "git.fetch": { params: gitRemoteParams, result: gitRemoteResult },
    "git.pull": { params: gitRemoteParams, result: gitRemoteResult },
    "git.push": { params: gitRemoteParams, result: gitRemoteResult },
    /** The file's version in the index, for the editor's change markers. */
    "git.indexText": { params: z.object({ path: workspacePath }), result: gitIndexText },
  } satisfies Record<string, MethodContract>;
}

export const daemonMethods = {
  /** Answered once the daemon's watcher has scanned the workspace. */
  ping: {
    params: z.object({}),
    result: z.object({
      version: z.number().int().min(1).max(1000),
      pid: z.number().int().min(1).max(MAX_PID),
      root: answeredPath,
    }),
  },
  "fs.tree": {
    params: z.object({ path: workspacePath.default("."), depth: z.number().int().min(1).max(8).default(1) }),
    result: treeResult,
  },
  "fs.stat": { params: z.object({ path: workspacePath }), result: statResult },
  "fs.read": {
    params: z.object({
      path: workspacePath,
      maxBytes: z
        .number()
        .int()
        .min(0)
        .max(MAX_EDITOR_FILE_BYTES, `maxBytes is at most ${MAX_EDITOR_FILE_BYTES}`),
    }),
    result: readResult,
  },
  /**
   * Replaces a file atomically. With `expectedVersion` (mtime and size) or `expectedHash` (SHA-256
   * of its bytes, base64url) it fails with Conflict, writing nothing, unless the file still is that.
   */
  "fs.write": {
    params: z.object({
      path: workspacePath,
      content: z.string().max(MAX_EDITOR_FILE_BYTES),
      expectedVersion: fileVersion.optional(),
      expectedHash: z.string().max(100).optional(),
    }),
    result: writeResult,
  },
  "fs.mkdir": { params: z.object({ path: workspacePath }), result: z.object({ path: answeredPath }) },
  "fs.rename": {
    params: z.object({ from: workspacePath, to: workspacePath }),
    result: z.object({ from: answeredPath, to: answeredPath }),
  },
  "fs.delete": { params: z.object({ path: workspacePath }), result: z.object({ path: answeredPath }) },
  /** A file's bytes, base64, for the image viewer; above `maxBytes` only its size. */
  "fs.readBytes": {
    params: z.object({ path: workspacePath, maxBytes: z.number().int().min(0).max(MAX_IMAGE_BYTES) }),
    result: bytesResult,
  },
  /** Every file of the workspace (ripgrep's walk: `.gitignore` respected, `.git` left out), sorted. */
  "search.files": {
    params: z.object({ limit: z.number().int().min(1).max(MAX_LISTED_FILES) }),
    result: fileListResult,
  },
  /**
   * Searches file contents with ripgrep; the matches arrive as `search.matches` notifications
   * carrying `searchId` while it runs, the answer is the summary. Cancelling stops ripgrep.
   */
  "search.text": {
    params: z.object({
      searchId,
      query: textQuery,
      maxMatches: z.number().int().min(1).max(MAX_SEARCH_MATCHES),
    }),
    result: searchSummary,
  },
  /** What one file would hold with every match of `query` replaced (ripgrep's own replace); writes nothing. */
  "search.replaceIn": {
    params: z.object({
      path: workspacePath,
      query: textQuery,
      replacement: z.string().max(MAX_REPLACEMENT_CHARS),
    }),
    result: replacementPlan,
  },
  "tools.list": {
    params: z.object({ agent: z.string().max(64).optional(), model: z.string().max(256).optional() }),
    result: jsonWithin(
      z.object({ tools: z.array(toolDefinition.extend({ id: toolName })).max(MAX_DAEMON_TOOLS) }),
      MAX_TOOL_MESSAGE_CHARS,
    ),
  },
  /** Cancelling the request ($/cancelRequest) aborts the tool. */
  "tools.execute": {
    params: z.object({
      tool: z.string().min(1, "name the tool to run").max(64),
      args: jsonWithin(z.record(z.string(), z.unknown()), MAX_TOOL_MESSAGE_CHARS).default({}),
      sessionId: z.string().min(1).max(128),
      callId,
      // Not used by the tools yet; passed along when the service has them.
      agent: z.string().max(64).optional(),
      messageId: z.string().max(256).optional(),
    }),
    result: z.object({
      result: jsonWithin(toolResult, MAX_TOOL_MESSAGE_CHARS),
      output: z.string().max(MAX_TOOL_MESSAGE_CHARS),
    }),
  },
  /**
   * Keeps the full text of an output the service cut for the model in the spill folder (outside
   * the workspace, where the `read` tool reaches); answers its path in the container.
   */
  "tools.spill": {
    params: z.object({
      callId,
      // Characters, not bytes: the service cuts to MAX_SPILL_BYTES, which is never more characters.
      content: z.string().max(MAX_SPILL_BYTES, "the output to keep is larger than 8 MB"),
    }),
    result: z.object({ path: answeredPath.min(1) }),
  },
  /**
   * Records the workspace's files (minus .gitignore'd ones, .git and files over 2 MB) outside the
   * workspace; the id is the snapshot's tree hash.
   */
  "snapshot.take": { params: z.object({}), result: z.object({ id: snapshotId }) },
  /** What changed from snapshot `from` to `to` (the current files when `to` is omitted). */
  "snapshot.diff": {
    params: z.object({ from: snapshotId, to: snapshotId.optional() }),
    result: turnDiff,
  },
  /**
   * Makes the files that differ between `from` and `to` (only those under `paths`, when given)
   * look as in `from`; nothing else is touched.
   */
  "snapshot.restore": {
    params: z.object({
      from: snapshotId,
      to: snapshotId,
      paths: z.array(workspacePath).max(MAX_LISTED_FILES).optional(),
    }),
    result: z.object({ restored: pathList, removed: pathList }),
  },
  ...gitMethods(),
  /** The TCP ports something listens on in the workspace (loopback and wildcard binds), sorted. */
  "ports.list": {
    params: z.object({}),
    result: z.object({ ports: z.array(listeningPort).max(MAX_LISTENING_PORTS) }),
  },
} satisfies Record<string, MethodContract>;

export const daemonNotifications = {
  /** Batched file-system changes under the workspace (debounced by the daemon). */
  "fs.changed": z.object({ changes: z.array(fileChange).max(MAX_CHANGES_PER_NOTIFICATION) }),
  /** Progress of a running tool (bash output so far, ...), from ctx.metadata(). */
  "tools.progress": z.object({
    callId,
    update: jsonWithin(z.record(z.string(), z.unknown()), MAX_TOOL_MESSAGE_CHARS),
  }),
  /** Matches found by a running `search.text`, grouped by file. */
  "search.matches": z.object({ searchId, files: z.array(fileMatches).max(MAX_SEARCH_MATCHES) }),
  /** A line of a running fetch, pull or push (git's `--progress`). */
  "git.progress": z.object({ callId, line: z.string().max(1000) }),
  /** The repository's HEAD, index or refs changed (debounced): status and branches are worth asking again. */
  "git.changed": z.object({ entries: z.array(z.string().max(256)).max(MAX_GIT_CHANGED_ENTRIES) }),
  /** The whole list of listening ports again, whenever a port opened or closed. */
  "ports.changed": z.object({ ports: z.array(listeningPort).max(MAX_LISTENING_PORTS) }),
} satisfies Record<string, z.ZodType>;

export type DaemonMethod = keyof typeof daemonMethods;
export type DaemonNotification = keyof typeof daemonNotifications;

/** What each method takes and answers, as the service sees them (the daemon's side: z.output/z.input). */
export type DaemonRequests = {
  [M in DaemonMethod]: {
    params: z.input<(typeof daemonMethods)[M]["params"]>;
    result: z.output<(typeof daemonMethods)[M]["result"]>;
  };
};
export type DaemonNotifications = {
  [N in DaemonNotification]: z.output<(typeof daemonNotifications)[N]>;
};
