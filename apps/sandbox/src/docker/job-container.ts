import { once } from "node:events";
import { Writable } from "node:stream";
import type Docker from "dockerode";
import type { ContainerCreateOptions } from "dockerode";

export interface JobResult {
  statusCode: number;
  /** The end of what it wrote (to stdout and stderr), at most `outputLimit` characters. */
  output: string;
}

/**
 * Runs a one-off container (no TTY) to its end and returns its exit code and output (stdout and
 * stderr, or only stdout with `stdoutOnly`); the container is removed whatever happens. With
 * `timeoutMs`, a job still running then is killed and an error thrown; so it is at once when
 * `signal` aborts (with the signal's reason).
 */
export async function runJobContainer(
  docker: Docker,
  options: ContainerCreateOptions,
  limits: { outputLimit: number; timeoutMs?: number; stdoutOnly?: boolean; signal?: AbortSignal },
): Promise<JobResult> {
  limits.signal?.throwIfAborted();
  const container = await docker.createContainer(options);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    let output = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output = (output + chunk.toString()).slice(-limits.outputLimit);
        done();
      },
    });
    const stream = await container.attach({ stream: true, stdout: true, stderr: !limits.stdoutOnly });
    const ended = once(stream, "end");
    docker.modem.demuxStream(stream, sink, sink);
    await container.start();
    const waited = container.wait() as Promise<{ StatusCode: number }>;
    const timeout = new Promise<never>((_, reject) => {
      if (limits.timeoutMs === undefined) return;
      const seconds = limits.timeoutMs / 1000;
      timer = setTimeout(() => reject(new Error(`the job did not finish in ${seconds} s`)), limits.timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      const signal = limits.signal;
      if (!signal) return;
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const { StatusCode } = await Promise.race([waited, timeout, aborted]);
    await ended;
    return { statusCode: StatusCode, output };
  } finally {
    clearTimeout(timer);
    if (onAbort) limits.signal?.removeEventListener("abort", onAbort);
    await container.remove({ force: true }).catch(() => undefined);
  }
}
