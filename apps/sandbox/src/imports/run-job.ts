import type { Readable } from "node:stream";
import type { VolumeJobSpec, WorkspaceDriver } from "../driver/workspace-driver";
import { ImportError } from "./import-error";

/** A job's report on stdout is a line of JSON; anything past this is not read into memory. */
const STDOUT_LIMIT = 256 * 1024;

export interface JobIo {
  /** What the job reads on stdin (a token line, an archive); EOF after it unless `holdStdin`. */
  stdin: string | Readable;
  /**
   * Keep stdin open after the text until the job ends: the job takes its EOF as the service having
   * gone away (a restart), and ends itself rather than run on unwatched.
   */
  holdStdin?: boolean;
  /** Every chunk of the job's stderr, as it comes (the caller bounds what it keeps). */
  onStderr(chunk: Buffer): void;
  timeoutMs: number;
  /** Aborted: the job is killed and the run fails (the workspace is being deleted). */
  signal: AbortSignal;
}

/**
 * Runs a volume job to its end: feeds its stdin, hands its stderr over, keeps the first 256 KB of
 * its stdout, and kills it at the deadline or on abort. Resolves with its exit code.
 */
export async function runJob(
  driver: WorkspaceDriver,
  workspaceId: string,
  spec: VolumeJobSpec,
  io: JobIo,
): Promise<{ code: number | null; stdout: string }> {
  if (io.signal.aborted) throw new ImportError("the import was cancelled");
  const job = await driver.volumeJob(workspaceId, spec);
  let stdout = "";
  job.stdout.on("data", (chunk: Buffer) => {
    if (stdout.length < STDOUT_LIMIT) stdout += chunk.toString("utf8", 0, STDOUT_LIMIT - stdout.length);
  });
  job.stderr.on("data", io.onStderr);
  // A job that ends before reading all its input closes its stdin: that is its own business.
  job.stdin.on("error", () => undefined);
  if (typeof io.stdin === "string") {
    if (io.holdStdin) job.stdin.write(io.stdin);
    else job.stdin.end(io.stdin);
  } else {
    io.stdin.on("error", () => job.stdin.end());
    io.stdin.pipe(job.stdin);
  }
  let stopped: ImportError | undefined;
  const stop = (error: ImportError) => {
    stopped ??= error;
    void job.close();
  };
  const seconds = Math.round(io.timeoutMs / 1000);
  const timer = setTimeout(
    () => stop(new ImportError(`the import did not finish within ${seconds} s (CODER_IMPORT_TIMEOUT_S)`)),
    io.timeoutMs,
  );
  const onAbort = () => stop(new ImportError("the import was cancelled"));
  io.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const code = await job.exited;
    if (stopped) throw stopped;
    return { code, stdout };
  } finally {
    clearTimeout(timer);
    io.signal.removeEventListener("abort", onAbort);
    if (typeof io.stdin !== "string") io.stdin.destroy();
  }
}
