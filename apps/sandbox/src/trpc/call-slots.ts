import { ServiceError } from "../errors/service-error";
/** Calls one person runs at once on one workspace; the rest wait their turn. */
export const CALLS_RUNNING_PER_PERSON = 4;
/** Calls one person may have waiting on one workspace; beyond that a call is refused at once. */
export const CALLS_WAITING_PER_PERSON = 256;

/** A call refused because its person already has too many waiting. */
export class TooManyCallsError extends ServiceError {
  constructor() {
    super("too_many", "too many calls at once on this workspace; wait for the ones already sent");
  }
}

interface Lane {
  running: number;
  waiting: Set<() => void>;
}

/**
 * One person's share of a workspace (its daemon, mostly): each person (a login or a guest's
 * session) runs at most CALLS_RUNNING_PER_PERSON calls at once there, the rest wait in order in
 * their own lane. So a guest firing thousands of reads keeps only a few in front of the owner's
 * call, never all of them.
 */
export class CallSlots {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly running = CALLS_RUNNING_PER_PERSON,
    private readonly maxWaiting = CALLS_WAITING_PER_PERSON,
  ) {}

  /**
   * Waits for a slot in `person`'s lane on `workspaceId` and returns its release (call it once).
   * A call aborted while waiting leaves the lane and rejects with the signal's reason.
   */
  async take(workspaceId: string, person: string, signal?: AbortSignal): Promise<() => void> {
    const key = `${workspaceId}\n${person}`;
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { running: 0, waiting: new Set() };
      this.lanes.set(key, lane);
    }
    const release = this.releaser(key, lane);
    if (lane.running < this.running) {
      lane.running++;
      return release;
    }
    if (lane.waiting.size >= this.maxWaiting) throw new TooManyCallsError();
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        lane.waiting.delete(turn);
        this.forgetIfIdle(key, lane);
        reject(signal?.reason);
      };
      lane.waiting.add(turn);
      signal?.addEventListener("abort", abort, { once: true });
    });
    return release;
  }

  /** Releasing hands the slot to the lane's next waiting call, or frees it. */
  private releaser(key: string, lane: Lane): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.waiting.values().next().value;
      if (next) {
        lane.waiting.delete(next);
        next();
      } else {
        lane.running--;
        this.forgetIfIdle(key, lane);
      }
    };
  }

  private forgetIfIdle(key: string, lane: Lane): void {
    if (lane.running === 0 && lane.waiting.size === 0) this.lanes.delete(key);
  }
}
