import { spawn } from "node:child_process";
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { daemonError } from "../rpc/errors";

/** Git's standard output kept per call; past it the rest is read and dropped, and the answer says so. */
export const MAX_GIT_OUTPUT_BYTES = 4 * 1024 * 1024;
/** A local git call (status, commit, checkout, ...) is stopped after this long. */
export const GIT_LOCAL_DEADLINE_MS = 50_000;
/** The tail of git's standard error kept for its message on failure. */
const MAX_GIT_STDERR_CHARS = 16 * 1024;
/** The longest message of git's that a failure carries. */
const MAX_GIT_MESSAGE_CHARS = 2000;
/** Progress lines that only update a percentage are passed on at most this often. */
const PROGRESS_INTERVAL_MS = 100;
/** After SIGTERM at the deadline, git gets this long to remove its lock files before SIGKILL. */
const KILL_GRACE_MS = 2000;

/**
 * What every git call runs with, whatever the repository's own configuration says: a repository's
 * `.git/config` and hooks are code its author wrote, and the daemon's git must never run them.
 * Command-line `-c` settings win over every configuration file. `credential.helper=` empties the
 * list of helpers gathered from the files (a helper of ours, h/gitcred's, comes after it).
 */
export const GIT_GUARDS: readonly string[] = [
  "core.hooksPath=/dev/null",
  "credential.helper=",
  "core.askPass=",
  "core.fsmonitor=false",
  "core.sshCommand=false",
  "protocol.allow=never",
  "protocol.https.allow=always",
  "protocol.http.allow=always",
  "diff.external=",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "log.showSignature=false",
  "submodule.recurse=false",
  "fetch.recurseSubmodules=false",
].flatMap((setting) => ["-c", setting]);

export interface RunGitOptions {
  /** The workspace root: git runs there and never looks for a repository above it. */
  root: string;
  /** Aborts the call (the client cancelled, the daemon shuts down). */
  signal?: AbortSignal;
  /** Default GIT_LOCAL_DEADLINE_MS. */
  deadlineMs?: number;
  /** Default MAX_GIT_OUTPUT_BYTES. */
  maxOutputBytes?: number;
  /** Written to git's standard input. */
  input?: string;
  /** Exit codes that are answers, not failures (default only 0). */
  okCodes?: readonly number[];
  /** More `-c` settings, after the guards (a commit's author). */
  config?: readonly string[];
  /** For a call that may ask for a credential: h/gitcred answers it through the daemon channel. */
  credentials?: { requestId: string };
  /** Each line of git's progress on standard error (`--progress`), percentages at most every 100 ms. */
  onProgress?: (line: string) => void;
}

export interface GitRun {
  code: number;
  stdout: string;
  /** The tail of standard error. */
  stderr: string;
  /** Standard output went past the bound; `stdout` is its beginning. */
  truncated: boolean;
}

/** The daemon's environment without GIT_* variables (they would point git elsewhere) and askpass helpers. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("GIT_") || key === "SSH_ASKPASS") delete env[key];
  }
  return env;
}

/** The last scan, by the exact bytes of the repository's config it was made from. */
let lastScan: { root: string; text: Buffer; overrides: Record<string, string> } | undefined;

/**
 * The repository's configuration when it is the only source of settings (system and global are
 * off): `.git` a folder, its `config` naming no other file (include, includeIf, a worktree's
 * config). Undefined otherwise, and then git is asked every time.
 */
async function soleConfigText(root: string): Promise<Buffer | undefined> {
  try {
    const gitDir = path.join(root, ".git");
    if (!(await lstat(gitDir)).isDirectory()) return undefined;
    // Bytes, not text: two configs that differ only in invalid UTF-8 must not look alike.
    const text = await readFile(path.join(gitDir, "config"));
    return /include|worktreeconfig/i.test(text.toString("latin1")) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** The scan's overrides; the same config text as last time gives the same drivers without asking git. */
async function driverOverrides(root: string, signal?: AbortSignal): Promise<Record<string, string>> {
  const text = await soleConfigText(root);
  if (text !== undefined && lastScan?.root === root && lastScan.text.equals(text)) return lastScan.overrides;
  const overrides = await scanDrivers(root, signal);
  lastScan = text === undefined ? undefined : { root, text, overrides };
  return overrides;
}

/**
 * Settings that switch off the programs a repository's configuration names for its filters, merge
 * drivers and diff drivers (`filter.<x>.clean`, `merge.<x>.driver`, ...): git would run them when
 * `.gitattributes` asks. An empty command is no filter; an empty merge driver fails the merge.
 * They go as GIT_CONFIG_KEY_n/VALUE_n, which carry any driver name (`-c` splits at the first `=`).
 */
async function scanDrivers(root: string, signal?: AbortSignal): Promise<Record<string, string>> {
  const listed = await spawnGit(
    ["config", "-z", "--name-only", "--get-regexp", "^(filter|merge|diff)\\..+\\."],
    { root, signal, okCodes: [0, 1] },
    baseEnv(root),
  );
  const settings = new Map<string, string>();
  for (const key of listed.stdout.split("\0")) {
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    if (first < 0 || last <= first) continue;
    const section = key.slice(0, first).toLowerCase();
    const driver = key.slice(first + 1, last);
    const names =
      section === "filter"
        ? ["clean", "smudge", "process"]
        : section === "merge"
          ? ["driver"]
          : ["command", "textconv"];
    for (const name of names) settings.set(`${section}.${driver}.${name}`, "");
    if (section === "filter") settings.set(`filter.${driver}.required`, "false");
  }
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.size) };
  [...settings].forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

function baseEnv(root: string): NodeJS.ProcessEnv {
  return {
    ...inheritedEnv(),
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    // The home folder is as writable by the workspace's programs as the repository.
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CEILING_DIRECTORIES: path.dirname(root),
    GIT_TERMINAL_PROMPT: "0",
    GIT_EDITOR: "true",
    GIT_SEQUENCE_EDITOR: "true",
    GIT_PAGER: "cat",
    // status never rewrites the index: that would wake the git watcher, and every panel, again.
    GIT_OPTIONAL_LOCKS: "0",
    // A path is a name, never a pattern (`*.txt` stages the file of that name).
    GIT_LITERAL_PATHSPECS: "1",
  };
}

/** The last lines of git's standard error: its own message for a person. */
export function gitMessage(stderr: string, fallback: string): string {
  const lines = stderr
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== "" &&
        !/^(remote: )?(Counting|Compressing|Writing|Enumerating|Receiving|Resolving|Total|Delta)\b/.test(
          line,
        ),
    );
  const message = lines.join("\n").slice(-MAX_GIT_MESSAGE_CHARS);
  return message === "" ? fallback : message;
}

/** Passes progress lines on: every line that is not a percentage update, those at most every 100 ms. */
function progressReporter(onProgress: ((line: string) => void) | undefined) {
  let pending = "";
  let lastSent = 0;
  return (chunk: string) => {
    if (!onProgress) return;
    pending += chunk;
    const parts = pending.split(/[\r\n]/);
    pending = (parts.pop() ?? "").slice(-MAX_GIT_MESSAGE_CHARS);
    for (const part of parts) {
      const line = part.trim().slice(0, 1000);
      if (line === "") continue;
      const now = Date.now();
      const update = /\d+%/.test(line) && !/done\.?$/.test(line);
      if (update && now - lastSent < PROGRESS_INTERVAL_MS) continue;
      lastSent = now;
      onProgress(line);
    }
  };
}

function spawnGit(args: readonly string[], options: RunGitOptions, env: NodeJS.ProcessEnv): Promise<GitRun> {
  const deadline = options.deadlineMs ?? GIT_LOCAL_DEADLINE_MS;
  const maxBytes = options.maxOutputBytes ?? MAX_GIT_OUTPUT_BYTES;
  return new Promise((resolve, reject) => {
    // Its own process group, so a stop reaches the helpers it started (git-remote-http, ...).
    const child = spawn("git", [...GIT_GUARDS, ...(options.config ?? []), ...args], {
      cwd: options.root,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const out: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = "";
    let stopped: string | undefined;
    const progress = progressReporter(options.onProgress);
    const signalGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const stop = (why: string) => {
      if (stopped) return;
      stopped = why;
      signalGroup("SIGTERM");
      setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(
      () => stop(`git ${args[0]} did not finish within ${Math.round(deadline / 1000)} s`),
      deadline,
    );
    const onAbort = () => stop(`git ${args[0]} was cancelled`);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > maxBytes) {
        out.push(chunk.subarray(0, maxBytes - size));
        truncated = true;
      } else out.push(chunk);
      size += chunk.length;
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_GIT_STDERR_CHARS);
      progress(chunk);
    });
    child.stdin.on("error", () => undefined); // git may exit before reading all of its input
    child.stdin.end(options.input ?? "");
    child.on("error", (error) => {
      done();
      reject(daemonError(DaemonErrorCode.Io, `git could not run in the workspace: ${error.message}`));
    });
    child.on("close", (code) => {
      done();
      if (stopped) return reject(daemonError(DaemonErrorCode.Git, stopped));
      const run = { code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr, truncated };
      if ((options.okCodes ?? [0]).includes(run.code)) return resolve(run);
      reject(
        daemonError(DaemonErrorCode.Git, gitMessage(stderr, `git ${args[0]} failed (exit ${run.code})`)),
      );
    });
  });
}

/**
 * Runs the workspace's own `git` with `args` (an argument vector, never a shell) under the guards
 * above, a deadline and a bound on its output. Answers when git exited with an accepted code;
 * otherwise fails with DaemonErrorCode.Git and git's own message.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<GitRun> {
  const env = { ...baseEnv(options.root), ...(await driverOverrides(options.root, options.signal)) };
  return spawnGit(args, options, env);
}
