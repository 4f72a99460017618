import type { SessionEvent, StoredSessionEvent } from "@coder/protocol";
import type { Db } from "../../db/database";
import { project } from "./projection";

interface Pending {
  sessionId: string;
  event: SessionEvent;
  resolve(stored: StoredSessionEvent): void;
  reject(error: unknown): void;
}

type Listener = (event: StoredSessionEvent) => void;

/** Rows read per query when replaying a session's events. */
const REPLAY_PAGE = 500;

/**
 * How long an event nobody waits for may wait for company. Every commit costs an fsync that
 * blocks the process, so progress and streaming events are stored in small batches; an event
 * someone awaits (a tool result, a prompt) takes whatever is waiting along at once.
 */
export const BATCH_WINDOW_MS = 10;

/**
 * The ordered record of every session's events. `append` stores an event (and updates the state
 * tables) in a transaction and only then publishes it, so a subscriber never sees an event that
 * could be lost. Events that are waiting together share one transaction (group commit).
 */
export class EventLog {
  private queue: Pending[] = [];
  private flushing = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly db: Db) {}

  /**
   * Stores and publishes an event; resolves once it is committed. `urgent: false` lets it wait up
   * to BATCH_WINDOW_MS for other events to share the commit.
   */
  append(sessionId: string, event: SessionEvent, urgent = true): Promise<StoredSessionEvent> {
    return new Promise((resolve, reject) => {
      this.queue.push({ sessionId, event, resolve, reject });
      if (this.flushing) return; // the running flush takes it next
      if (urgent) {
        clearTimeout(this.timer);
        this.timer = undefined;
        void this.flush();
      } else {
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          if (!this.flushing) void this.flush();
        }, BATCH_WINDOW_MS);
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      // Let the appends of the current tick join this batch.
      await Promise.resolve();
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          this.publish(batch, await this.commit(batch));
        } catch (error) {
          if (batch.length === 1) batch[0]?.reject(error);
          // One bad event must not sink the others: store them one by one.
          else
            for (const item of batch)
              await this.commit([item]).then((s) => this.publish([item], s), item.reject);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commit(batch: Pending[]): Promise<StoredSessionEvent[]> {
    const at = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      // Another instance may append to the same session meanwhile (a rename while this one runs
      // a turn). Holding the sessions' rows until commit (in one order: no deadlock) makes their
      // ids commit in the order they were handed out, so a reader "after id N" never skips one.
      for (const sessionId of [...new Set(batch.map((p) => p.sessionId))].sort()) {
        await trx
          .updateTable("sessions")
          .set((eb) => ({ updated_at: eb.ref("updated_at") }))
          .where("id", "=", sessionId)
          .execute();
      }
      const stored: StoredSessionEvent[] = [];
      for (const { sessionId, event } of batch) {
        const { id } = await trx
          .insertInto("session_events")
          .values({ session_id: sessionId, data: JSON.stringify(event), created_at: at })
          .returning("id")
          .executeTakeFirstOrThrow();
        await project(trx, sessionId, event, id, at);
        stored.push({ ...event, id, sessionId, at });
      }
      return stored;
    });
  }

  private publish(batch: Pending[], stored: StoredSessionEvent[]): void {
    stored.forEach((event, i) => {
      for (const listener of this.listeners.get(event.sessionId) ?? []) listener(event);
      batch[i]?.resolve(event);
    });
  }

  /**
   * The events of a session after `afterId` from the database, then live ones as they are
   * published, until `signal` aborts. The listener is registered before the replay starts and
   * events are delivered by increasing id, so nothing is missed and nothing comes twice.
   */
  async *follow(sessionId: string, afterId: number, signal: AbortSignal): AsyncGenerator<StoredSessionEvent> {
    const live: StoredSessionEvent[] = [];
    let wake: (() => void) | undefined;
    const listener: Listener = (event) => {
      live.push(event);
      wake?.();
    };
    const onAbort = () => wake?.();
    let set = this.listeners.get(sessionId);
    if (!set) {
      set = new Set();
      this.listeners.set(sessionId, set);
    }
    set.add(listener);
    signal.addEventListener("abort", onAbort);
    try {
      let last = afterId;
      for (;;) {
        const rows = await this.db
          .selectFrom("session_events")
          .selectAll()
          .where("session_id", "=", sessionId)
          .where("id", ">", last)
          .orderBy("id")
          .limit(REPLAY_PAGE)
          .execute();
        for (const row of rows) {
          last = row.id;
          yield { ...(JSON.parse(row.data) as SessionEvent), id: row.id, sessionId, at: row.created_at };
        }
        if (rows.length < REPLAY_PAGE || signal.aborted) break;
      }
      while (!signal.aborted) {
        const event = live.shift();
        if (event) {
          if (event.id > last) {
            last = event.id;
            yield event;
          }
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
    }
  }
}
