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

/** Lines longer than this (one match in a huge minified file) are skipped, so memory stays bounded. */
export const MAX_RIPGREP_LINE_CHARS = 8 * 1024 * 1024;

export interface RipgrepOptions {
  /** Lines longer than this are dropped (default MAX_RIPGREP_LINE_CHARS); `onLongLine` hears of each. */
  maxLineChars?: number;
  onLongLine?: () => void;
}

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
  options: RipgrepOptions = {},
): Promise<RipgrepRun> {
  const maxLine = options.maxLineChars ?? MAX_RIPGREP_LINE_CHARS;
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let stopped = false;
    // The start of the line not yet ended, kept as chunks (joining them on every chunk would be
    // quadratic); `skipping` drops the rest of a line that grew past the bound.
    let pending: string[] = [];
    let pendingChars = 0;
    let skipping = false;
    const stop = () => {
      stopped = true;
      child.kill();
    };
    const takeLine = (tail: string): string | undefined => {
      const line = skipping ? undefined : pending.join("") + tail;
      pending = [];
      pendingChars = 0;
      skipping = false;
      return line;
    };
    signal.addEventListener("abort", stop, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      let start = 0;
      for (let end = chunk.indexOf("\n"); !stopped && end !== -1; end = chunk.indexOf("\n", start)) {
        const line = takeLine(chunk.slice(start, end));
        start = end + 1;
        if (line !== undefined && line !== "" && !onLine(line)) stop();
      }
      if (stopped || skipping || start === chunk.length) return;
      pending.push(chunk.slice(start));
      pendingChars += chunk.length - start;
      if (pendingChars > maxLine) {
        pending = [];
        pendingChars = 0;
        skipping = true;
        options.onLongLine?.();
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
      const last = stopped ? undefined : takeLine("");
      if (last) onLine(last);
      resolve({ code, stderr, stopped });
    });
  });
}
