// Running other programs: streamed with a line prefix for long jobs, captured for quick probes.
import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { forEachLine } from "./lines.mjs";
import { formatDuration, SetupError } from "./steps.mjs";

// A long job that has printed nothing for this long gets a "still running" line, so a CI log
// or a terminal never looks stuck.
const QUIET_MS = 30_000;

/** A command that could not start or exited non-zero. */
export class CommandError extends SetupError {
  name = "CommandError";
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * Runs a command to completion. Its output is printed line by line behind `prefix`, or passed
 * straight through with `inherit` (for tools that draw on a terminal). `stdin` may be a stream
 * with a file descriptor (another child's stdout). Rejects with a CommandError.
 */
export function run(
  cmd,
  args,
  { cwd, env, prefix = path.basename(cmd), stdin = "ignore", inherit = false } = {},
) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: inherit ? "inherit" : [stdin, "pipe", "pipe"] });
    const started = performance.now();
    let lastOutput = started;
    let heartbeat;
    if (!inherit) {
      const print = (line) => {
        lastOutput = performance.now();
        console.log(`  ${prefix} │ ${line}`);
      };
      forEachLine(child.stdout, print);
      forEachLine(child.stderr, print);
      heartbeat = setInterval(() => {
        const now = performance.now();
        if (now - lastOutput >= QUIET_MS) print(`… still running (${formatDuration(now - started)})`);
      }, QUIET_MS);
    }
    const commandLine = [cmd, ...args].join(" ");
    child.on("error", (error) => {
      clearInterval(heartbeat);
      const reason = error.code === "ENOENT" ? "command not found" : error.message;
      reject(new CommandError(`${commandLine}: ${reason}`, 127));
    });
    child.on("close", (code, signal) => {
      clearInterval(heartbeat);
      if (code === 0) resolve();
      else reject(new CommandError(`${commandLine} failed (${signal ?? `exit code ${code}`})`, code ?? 1));
    });
  });
}

/**
 * Runs a quick command and collects its output. Never rejects: a command that is missing, times
 * out or fails has a non-zero `code` (127 when it could not start).
 */
export function capture(cmd, args, { cwd, env, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", (error) => resolve({ code: 127, stdout, stderr: stderr + error.message }));
    child.on("close", (code, signal) => {
      const timedOut = signal !== null ? `\n(stopped by ${signal} after ${timeoutMs} ms)` : "";
      resolve({ code: code ?? 1, stdout, stderr: stderr + timedOut });
    });
  });
}

// Daemons live in sbin folders that a user's PATH often lacks.
const SBIN_DIRS = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/** The absolute path of an executable found on PATH (or an sbin folder), or null. */
export async function findCommand(name) {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), ...SBIN_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}
