import { spawn } from "node:child_process";

export interface Collected {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout grew past `maxBytes`: the process was stopped and `stdout` is empty. */
  overflow: boolean;
}

const MAX_STDERR = 4096;

/**
 * Runs a program with `stdin` as its input and collects its output as UTF-8, at most `maxBytes` of
 * it (past that it is stopped), so a file's replace cannot grow the daemon without bound.
 */
export function runCollect(
  bin: string,
  args: string[],
  options: { stdin: string; maxBytes: number; signal: AbortSignal },
): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let stderr = "";
    const stop = () => child.kill();
    options.signal.addEventListener("abort", stop, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (overflow) return;
      size += chunk.length;
      if (size > options.maxBytes) {
        overflow = true;
        chunks.length = 0;
        stop();
      } else chunks.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.slice(0, MAX_STDERR - stderr.length);
    });
    // rg may exit before reading all of stdin (a bad pattern): that EPIPE is not our failure.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin);
    child.on("error", (error) => {
      options.signal.removeEventListener("abort", stop);
      reject(error);
    });
    child.on("close", (code) => {
      options.signal.removeEventListener("abort", stop);
      resolve({ code, stdout: Buffer.concat(chunks).toString("utf8"), stderr, overflow });
    });
  });
}
