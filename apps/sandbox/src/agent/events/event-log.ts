import type { SessionEvent, StoredSessionEvent } from "@coder/protocol";
import type { Db } from "../../db/database";
import type { LiveBus } from "../../events/live-bus";
import { noticeWakeups } from "../../events/notice-wakeups";
import { project } from "./projection";

interface Pending {
  sessionId: string;
  event: SessionEvent;
  resolve(stored: StoredSessionEvent): void;
  reject(error: unknown): void;
}

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
 * tables) in a transaction and only then announces it on the live bus, so a subscriber never sees
 * an event that could be lost. Events that are waiting together share one transaction (group
 * commit). Subscribers read the events from the database, on whichever instance they are.
 */
export class EventLog {
  private queue: Pending[] = [];
  private flushing = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly db: Db,
    private readonly bus: LiveBus,
    /** The service instance this log belongs to (stored as the owner of the turns it starts). */
    private readonly instanceId: string,
  ) {}

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
        await project(trx, sessionId, event, id, at, this.instanceId);
        stored.push({ ...event, id, sessionId, at });
      }
      return stored;
    });
  }

  private publish(batch: Pending[], stored: StoredSessionEvent[]): void {
    for (const [i, event] of stored.entries()) batch[i]?.resolve(event);
    for (const sessionId of new Set(stored.map((e) => e.sessionId))) {
      // The events are stored; a lost notice only delays subscribers until the next one.
      this.bus.notify("session", sessionId).catch(() => {});
    }
  }

  /**
   * The events of a session after `afterId` from the database, then new ones as they are
   * announced (by any instance), until `signal` aborts. Every announcement means "read again after
   * the last id": the database alone says what the events are, so nothing is missed and nothing
   * comes twice.
   */
  async *follow(sessionId: string, afterId: number, signal: AbortSignal): AsyncGenerator<StoredSessionEvent> {
    let last = afterId;
    for await (const _ of noticeWakeups(this.bus, "session", sessionId, signal)) {
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
    }
  }
}
