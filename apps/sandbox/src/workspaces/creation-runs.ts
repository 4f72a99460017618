import { NamedError } from "../errors/named-error";
/** Why a run was aborted: a delete in this process, which then removes what the run made itself. */
export const DELETED_HERE = "deleted here";
/** Why a run was aborted: a delete through another instance, after which the run cleans up. */
export const DELETED_ELSEWHERE = "deleted elsewhere";

/** Thrown at a step boundary of a creation (or start) whose workspace was deleted meanwhile. */
export class CreationCancelled extends NamedError {
  constructor(id: string) {
    super(`workspace ${id} was deleted while it was being made`);
  }
}

/**
 * The creations (and starts) this process runs, one per workspace, each with a signal a delete
 * aborts: the run stops at its next step boundary, and the delete waits for that before it removes
 * what the run made, so nothing is made after the delete looked.
 */
export class CreationRuns {
  private readonly runs = new Map<string, { abort: AbortController; done: Promise<void> }>();

  /** Runs `work` as the run of workspace `id`; resolves once it ended (it must not reject). */
  run(id: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    const done = work(abort.signal).finally(() => {
      if (this.runs.get(id)?.done === done) this.runs.delete(id);
    });
    this.runs.set(id, { abort, done });
    return done;
  }

  has(id: string): boolean {
    return this.runs.has(id);
  }

  /** Aborts the run of `id`, if any, with `reason` (it stops at its next step boundary). */
  abort(id: string, reason: string): void {
    this.runs.get(id)?.abort.abort(reason);
  }

  /** Resolves once the run of `id`, if any, has ended. */
  async settled(id: string): Promise<void> {
    await this.runs.get(id)?.done;
  }
}

/** Resolves or rejects with `work`, or rejects as soon as `signal` aborts (the work runs on, unheard). */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal, id: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new CreationCancelled(id));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CreationCancelled(id));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
