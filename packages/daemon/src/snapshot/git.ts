import { spawn } from "node:child_process";

/** Where the snapshot repository lives and which folder it records. */
export interface GitPlace {
  /** The snapshot store (a bare repository), outside the workspace. */
  gitDir: string;
  /** The workspace root. */
  workTree: string;
}

export interface GitOptions {
  /** Written to git's stdin. */
  input?: string;
  /** Another index file (a scratch one for restores). */
  indexFile?: string;
  /** Exit codes that are not failures (e.g. 1 for "no such object" probes). */
  okCodes?: number[];
  /** Run outside the store (to create it: git refuses GIT_WORK_TREE before the store exists). */
  outside?: boolean;
}

export interface GitResult {
  stdout: string;
  code: number;
}

export class GitError extends Error {}

/** The daemon's environment without GIT_* variables, which would point git elsewhere. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("GIT_")) delete env[key];
  return env;
}

/**
 * Runs git against the snapshot store. The person's own git configuration (global, system) and
 * the workspace's own repository play no part: results depend only on the files.
 */
export function runGit(place: GitPlace, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnv(),
    LANG: "C.UTF-8",
    ...(options.outside ? {} : { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.workTree }),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_TERMINAL_PROMPT: "0",
    ...(options.indexFile ? { GIT_INDEX_FILE: options.indexFile } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd: place.workTree, env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(new GitError(`git could not run: ${error.message}`)));
    child.on("close", (code) => {
      const exit = code ?? -1;
      if (exit === 0 || options.okCodes?.includes(exit)) {
        resolve({ stdout: Buffer.concat(out).toString("utf8"), code: exit });
      } else {
        const detail = Buffer.concat(err).toString("utf8").trim();
        reject(new GitError(`git ${args[0]} failed (${exit}): ${detail}`));
      }
    });
    child.stdin.on("error", () => {}); // git may exit before reading all of its input
    child.stdin.end(options.input ?? "");
  });
}

/** Splits NUL-separated output (the `-z` form) into its fields. */
export function nulFields(output: string): string[] {
  const fields = output.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}
