import { once } from "node:events";
import { Writable } from "node:stream";
import type Docker from "dockerode";
import type { ContainerCreateOptions } from "dockerode";
import type { StepReport } from "../driver/step-report";
import { NamedError } from "../errors/named-error";

/**
 * How long the engine may take to answer one request of a job (create it, attach to it, start it,
 * end its output once it exited, remove it). A saturated machine answers slowly, not never: past
 * this the engine is stuck, and the job fails saying which answer it waited for instead of holding
 * what waits for it (a workspace being created) for ever.
 */
export const ENGINE_ANSWER_MS = 120_000;

export class JobEngineError extends NamedError {}

export interface JobResult {
  statusCode: number;
  /** The end of what it wrote (to stdout and stderr), at most `outputLimit` characters. */
  output: string;
}

/**
 * Runs a one-off container (no TTY) to its end and returns its exit code and output (stdout and
 * stderr, or only stdout with `stdoutOnly`); the container is removed whatever happens. With
 * `timeoutMs`, a job still running then is killed and an error thrown; so it is at once when
 * `signal` aborts (with the signal's reason), at any step. Each request to the engine must be
 * answered within `answerMs`; one slow to come is told to `steps`, calling the job `name`.
 */
export async function runJobContainer(
  docker: Docker,
  options: ContainerCreateOptions,
  limits: {
    outputLimit: number;
    timeoutMs?: number;
    stdoutOnly?: boolean;
    signal?: AbortSignal;
    answerMs?: number;
    steps?: StepReport;
    /** The job in words for a person; default "the job's container". */
    name?: string;
  },
): Promise<JobResult> {
  limits.signal?.throwIfAborted();
  const answerMs = limits.answerMs ?? ENGINE_ANSWER_MS;
  const name = limits.name ?? "the job's container";
  /** `request`'s answer, unless the engine takes longer than `answerMs` or the job is aborted. */
  const answer = <T>(request: Promise<T>, what: string): Promise<T> => {
    const answered = race(
      request,
      limits.signal,
      answerMs,
      `the Docker engine did not ${what} in ${answerMs / 1000} s`,
    );
    return limits.steps?.waitFor(answered, `waiting for the Docker engine to ${what}`) ?? answered;
  };
  let container: Docker.Container | undefined;
  let stream: NodeJS.ReadWriteStream | undefined;
  let settled = false;
  try {
    const created = docker.createContainer(options);
    // Made after the job gave up on it: it must not stay behind.
    created.then(
      (late) => settled && !container && void late.remove({ force: true }).catch(() => undefined),
      () => undefined,
    );
    container = await answer(created, `create ${name}`);
    let output = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output = (output + chunk.toString()).slice(-limits.outputLimit);
        done();
      },
    });
    stream = await answer(
      container.attach({ stream: true, stdout: true, stderr: !limits.stdoutOnly }),
      `attach to ${name}`,
    );
    const ended = once(stream, "end");
    // Awaited only once the job exited; a stream that fails before then fails the wait instead.
    ended.catch(() => undefined);
    docker.modem.demuxStream(stream, sink, sink);
    await answer(container.start(), `start ${name}`);
    const waited = container.wait() as Promise<{ StatusCode: number }>;
    const timeoutMs = limits.timeoutMs ?? Number.POSITIVE_INFINITY;
    const { StatusCode } = await race(
      waited,
      limits.signal,
      timeoutMs,
      `the job did not finish in ${timeoutMs / 1000} s`,
    );
    await answer(ended, `end the output of ${name} after it exited`);
    return { statusCode: StatusCode, output };
  } finally {
    settled = true;
    (stream as { destroy?: () => void } | undefined)?.destroy?.();
    const removed = container?.remove({ force: true }).catch(() => undefined);
    if (removed) await race(removed, undefined, answerMs, "").catch(() => undefined);
  }
}

/** `promise`, or an error once `ms` passed (`timedOut`) or `signal` aborted (its reason). */
async function race<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  ms: number,
  timedOut: string,
): Promise<T> {
  signal?.throwIfAborted();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        if (Number.isFinite(ms)) timer = setTimeout(() => reject(new JobEngineError(timedOut)), ms);
        onAbort = () => reject(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
