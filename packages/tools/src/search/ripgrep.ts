import { spawn } from "node:child_process";
import type { ToolsConfig } from "../framework/types";

const available = new Map<string, Promise<boolean>>();

/** The ripgrep binary to use, or undefined for the built-in search (not configured or not installed). */
export async function ripgrepBinary(config: ToolsConfig): Promise<string | undefined> {
  if (config.ripgrep === false) return undefined;
  const bin = config.ripgrep ?? "rg";
  let check = available.get(bin);
  if (!check) {
    check = new Promise<boolean>((resolve) => {
      const child = spawn(bin, ["--version"], { stdio: "ignore" });
      child.on("error", () => resolve(false));
      child.on("exit", (code) => resolve(code === 0));
    });
    available.set(bin, check);
  }
  return (await check) ? bin : undefined;
}

/** Flags shared by glob and grep: dotfiles yes, `.git` no, `.gitignore` honoured even outside a repo. */
export const WALK_FLAGS = ["--hidden", "--no-require-git", "--glob", "!.git"];

export interface RipgrepRun {
  code: number | null;
  stderr: string;
  /** True when the consumer stopped the run early (enough results). */
  stopped: boolean;
}

const MAX_STDERR = 4096;

/**
 * Runs rg in `cwd` and hands each stdout line to `onLine`; returning false stops rg. Paths in rg's
 * output are relative to `cwd`, which is also what its `--glob` patterns are matched against.
 */
export function runRipgrep(
  bin: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onLine: (line: string) => boolean,
): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let stopped = false;
    let pending = "";
    const stop = () => {
      stopped = true;
      child.kill();
    };
    signal.addEventListener("abort", stop, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line !== "" && !onLine(line)) {
          stop();
          return;
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.slice(0, MAX_STDERR - stderr.length);
    });
    child.on("error", (error) => {
      signal.removeEventListener("abort", stop);
      reject(error);
    });
    child.on("close", (code) => {
      signal.removeEventListener("abort", stop);
      if (!stopped && pending !== "") onLine(pending);
      resolve({ code, stderr, stopped });
    });
  });
}
