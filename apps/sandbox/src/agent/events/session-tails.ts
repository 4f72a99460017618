import type { SessionEvent, StoredSessionEvent } from "@coder/protocol";
import type { Db } from "../../db/database";
import type { LiveBus } from "../../events/live-bus";

type Listener = (event: StoredSessionEvent) => void;

/** Rows read per query. */
const PAGE = 500;

/** The newest events of one session, read after each announcement. */
class Tail {
  readonly listeners = new Set<Listener>();
  readonly ready: Promise<void>;
  private last = 0;
  private reading = false;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly sessionId: string,
    private readonly log: (line: string) => void,
  ) {
    this.ready = this.start();
  }

  /** From the newest event committed now: the followers replay what came before themselves. */
  private async start(): Promise<void> {
    const row = await this.db
      .selectFrom("session_events")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("session_id", "=", this.sessionId)
      .executeTakeFirst();
    this.last = Number(row?.id ?? 0);
  }

  /** Reads what was committed since the last read (one read at a time; a notice meanwhile reads again). */
  read(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    this.drain()
      .catch((error: Error) => this.log(`reading session ${this.sessionId} events: ${error.message}`))
      .finally(() => {
        this.reading = false;
      });
  }

  private async drain(): Promise<void> {
    await this.ready;
    do {
      this.again = false;
      for (;;) {
        const rows = await this.db
          .selectFrom("session_events")
          .selectAll()
          .where("session_id", "=", this.sessionId)
          .where("id", ">", this.last)
          .orderBy("id")
          .limit(PAGE)
          .execute();
        for (const row of rows) {
          this.last = row.id;
          const event = {
            ...(JSON.parse(row.data) as SessionEvent),
            id: row.id,
            sessionId: this.sessionId,
            at: row.created_at,
          };
          for (const listener of this.listeners) listener(event);
        }
        if (rows.length < PAGE) break;
      }
    } while (this.again);
  }
}

/**
 * The new events of the sessions followed on this instance, whichever instance committed them:
 * after each announcement on the live bus one read per session hands them, in id order, to every
 * follower here (so twenty open tabs cost one query, not twenty).
 */
export class SessionTails {
  private readonly tails = new Map<string, Tail>();

  constructor(
    private readonly db: Db,
    bus: LiveBus,
    private readonly log: (line: string) => void,
  ) {
    bus.listen("session", ({ key }) => {
      if (key === null) for (const tail of this.tails.values()) tail.read();
      else this.tails.get(key)?.read();
    });
  }

  /**
   * Calls `listener` with each event of the session committed after this resolves, in order;
   * returns the function that stops it.
   */
  async subscribe(sessionId: string, listener: Listener): Promise<() => void> {
    let tail = this.tails.get(sessionId);
    if (!tail) {
      tail = new Tail(this.db, sessionId, this.log);
      this.tails.set(sessionId, tail);
    }
    const subscribed = tail;
    subscribed.listeners.add(listener);
    const stop = () => {
      subscribed.listeners.delete(listener);
      if (subscribed.listeners.size === 0 && this.tails.get(sessionId) === subscribed)
        this.tails.delete(sessionId);
    };
    try {
      await subscribed.ready;
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }
}
