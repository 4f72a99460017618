import type { SessionEvent, StoredSessionEvent } from "@coder/protocol";
import { DeltaCoalescer } from "./coalescer";
import type { EventLog } from "./event-log";

/**
 * Writes the events of one session while a turn runs: streamed text goes through the coalescer,
 * every other event first flushes the text waiting before it, so the stored order is the order
 * things happened. A failed write is kept and surfaces on the next `emit`.
 */
export class SessionRecorder {
  private failure: unknown;
  private readonly writes = new Set<Promise<unknown>>();
  private readonly coalescer: DeltaCoalescer;

  constructor(
    private readonly log: EventLog,
    readonly sessionId: string,
    intervalMs?: number,
  ) {
    this.coalescer = new DeltaCoalescer((deltas) => {
      for (const d of deltas)
        this.track(this.log.append(this.sessionId, { type: "part.delta", ...d }, false));
    }, intervalMs);
  }

  private track(write: Promise<unknown>): void {
    this.writes.add(write);
    write.then(
      () => this.writes.delete(write),
      (error: unknown) => {
        this.writes.delete(write);
        this.failure ??= error;
      },
    );
  }

  delta(messageId: string, partId: string, text: string): void {
    this.coalescer.push(messageId, partId, text);
  }

  /** Stores and publishes an event; resolves once it is committed. */
  async emit(event: SessionEvent): Promise<StoredSessionEvent> {
    this.coalescer.flush();
    if (this.failure) throw this.failure;
    return this.log.append(this.sessionId, event);
  }

  /**
   * Stores an event without waiting for it (progress, streaming); it may share a commit with the
   * next ones. A failure shows on the next emit.
   */
  post(event: SessionEvent): void {
    this.coalescer.flush();
    this.track(this.log.append(this.sessionId, event, false));
  }

  /** Writes what is waiting and waits for every write still in flight. */
  async drain(): Promise<void> {
    this.coalescer.flush();
    await Promise.allSettled([...this.writes]);
    if (this.failure) throw this.failure;
  }
}
