import { randomBytes } from "node:crypto";

/** The boot id makes event ids of an earlier service run recognisably stale. */
const BOOT = randomBytes(4).toString("hex");

export interface FeedItem<T> {
  id: string;
  data: T;
}

/**
 * An in-memory event feed with resumable ids, for tRPC subscriptions with `tracked()`. It keeps the
 * last `capacity` events so a client that reconnects with its last id gets exactly what it missed;
 * when that is no longer possible (too old, or from an earlier run) the subscriber is told to
 * resync, never silently given a gap.
 */
export class Feed<T> {
  private seq = 0;
  private readonly buffer: FeedItem<T>[] = [];
  private readonly listeners = new Set<(item: FeedItem<T>) => void>();

  constructor(private readonly capacity = 1000) {}

  publish(data: T): FeedItem<T> {
    this.seq += 1;
    const item = { id: `${BOOT}-${this.seq}`, data };
    this.buffer.push(item);
    if (this.buffer.length > this.capacity) this.buffer.shift();
    for (const listener of this.listeners) listener(item);
    return item;
  }

  /**
   * Yields the events after `lastEventId` (or only new ones without it), then live events until the
   * signal aborts. `resync` is yielded first when the missed events are no longer available.
   */
  async *subscribe(
    lastEventId: string | null | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<{ kind: "resync" } | { kind: "event"; item: FeedItem<T> }> {
    const queue: FeedItem<T>[] = [];
    let wake: (() => void) | undefined;
    const listener = (item: FeedItem<T>) => {
      queue.push(item);
      wake?.();
    };
    // One abort listener for the whole subscription (one per wait would pile up on the signal).
    const onAbort = () => wake?.();
    this.listeners.add(listener);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (lastEventId) {
        const [boot, seqText] = lastEventId.split("-");
        const seq = Number(seqText);
        const oldest = this.buffer[0];
        const oldestSeq = oldest ? Number(oldest.id.split("-")[1]) : this.seq + 1;
        if (boot !== BOOT || !Number.isFinite(seq) || seq + 1 < oldestSeq) {
          yield { kind: "resync" };
        } else {
          queue.unshift(...this.buffer.filter((i) => Number(i.id.split("-")[1]) > seq));
        }
      }
      while (!signal?.aborted) {
        const item = queue.shift();
        if (item) {
          yield { kind: "event", item };
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.listeners.delete(listener);
    }
  }
}
