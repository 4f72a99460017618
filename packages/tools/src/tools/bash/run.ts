import { spawn } from "node:child_process";
import { constants } from "node:os";
import { CappedOutput } from "./capture";

export interface ShellRun {
  command: string;
  cwd: string;
  timeoutMs: number;
  outputLimit: number;
  signal: AbortSignal;
  /** Called (throttled) with the output so far while the command runs. */
  onProgress?: (stdout: string, stderr: string) => void;
}

export interface ShellOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/** Exit code reported when the command was stopped (timeout or abort), as coreutils' timeout does. */
export const STOPPED_EXIT_CODE = 124;

/** After the shell exits, how long to wait for the pipes to drain before answering. */
const DRAIN_MS = 250;
/** After SIGTERM, how long the process group gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
const PROGRESS_EVERY_MS = 250;

/** Keeps commands from waiting for a person: no prompts, pagers, editors or colour. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  CI: "1",
  DEBIAN_FRONTEND: "noninteractive",
  GIT_TERMINAL_PROMPT: "0",
  GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
  GIT_PAGER: "cat",
  PAGER: "cat",
  MANPAGER: "cat",
  EDITOR: "true",
  VISUAL: "true",
  GIT_EDITOR: "true",
  TERM: "dumb",
  NO_COLOR: "1",
  npm_config_yes: "true",
  PIP_NO_INPUT: "1",
  PYTHONUNBUFFERED: "1",
};

/**
 * Runs `/bin/sh -lc command` in its own process group with stdin closed. The call ends when the
 * shell exits (plus a short drain), so a background child that keeps the pipes open does not hold
 * it; on timeout or abort the whole group is terminated.
 */
export function runShell(run: ShellRun): Promise<ShellOutcome> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-lc", run.command], {
      cwd: run.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...NON_INTERACTIVE_ENV },
    });
    const stdout = new CappedOutput(run.outputLimit);
    const stderr = new CappedOutput(run.outputLimit);
    let timedOut = false;
    let aborted = false;
    let exitCode: number | undefined;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    let progressTimer: NodeJS.Timeout | undefined;

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (why: "timeout" | "abort") => {
      if (exitCode !== undefined || settled) return;
      if (why === "timeout") timedOut = true;
      else aborted = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timeout = setTimeout(() => stop("timeout"), run.timeoutMs);
    const onAbort = () => stop("abort");
    run.signal.addEventListener("abort", onAbort, { once: true });
    if (run.signal.aborted) onAbort();

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(drainTimer);
      clearTimeout(progressTimer);
      run.signal.removeEventListener("abort", onAbort);
      // Let go of pipes a background child may still hold.
      child.stdout?.destroy();
      child.stderr?.destroy();
      const stopped = timedOut || aborted;
      resolve({
        exitCode: stopped ? STOPPED_EXIT_CODE : (exitCode ?? 1),
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
      });
    };

    const progress = () => {
      if (!run.onProgress || progressTimer) return;
      progressTimer = setTimeout(() => {
        progressTimer = undefined;
        if (!settled) run.onProgress?.(stdout.text(), stderr.text());
      }, PROGRESS_EVERY_MS);
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
      progress();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr.push(chunk);
      progress();
    });
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      run.signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      drainTimer = setTimeout(finish, DRAIN_MS);
    });
    child.on("close", finish);
  });
}
