/**
 * What changed, announced to every service instance on the database: a session's events
 * (key: session id), a workspace (key: workspace id), the reply to a waiting request (key:
 * request id), a request to stop a session's turn (key: session id), who is on a workspace (key:
 * workspace id), a workspace's list of conversations (key: workspace id), a new line or setting
 * of the people's talk (key: workspace id), a preview port's visibility (key: `<workspace id>:<port>`),
 * the service's accounts (auth/people-changes.ts), a write to a table the access checks read (key:
 * unused; auth/access-cache.ts).
 * Notices carry ids only: the committed rows are the truth, and a listener re-reads
 * them, so a missed notice costs a read, never an event.
 */
export const TOPICS = [
  "session",
  "workspace",
  "reply",
  "abort",
  "presence",
  "sessions",
  "talk",
  "preview",
  "people",
  "access",
] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * `key` null means "anything may have changed" (the bus lost its connection for a moment: every
 * listener re-reads). `local` says the notice came from this instance.
 */
export type Notice = { key: string | null; local: boolean };

export interface LiveBus {
  /** Announces a change already committed. */
  notify(topic: Topic, key: string): Promise<void>;
  /** Calls `listener` for each notice of `topic` from now on; returns the function that stops it. */
  listen(topic: Topic, listener: (notice: Notice) => void): () => void;
  close(): Promise<void>;
}

/** Listeners per topic, shared by the bus kinds. */
export class Listeners {
  private readonly byTopic = new Map<Topic, Set<(notice: Notice) => void>>();

  add(topic: Topic, listener: (notice: Notice) => void): () => void {
    let set = this.byTopic.get(topic);
    if (!set) {
      set = new Set();
      this.byTopic.set(topic, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  dispatch(topic: Topic, notice: Notice): void {
    for (const listener of this.byTopic.get(topic) ?? []) listener(notice);
  }

  /** Every listener of every topic re-reads. */
  dispatchAll(): void {
    for (const topic of this.byTopic.keys()) this.dispatch(topic, { key: null, local: false });
  }
}

/** One instance alone on its database (SQLite): notices stay in the process. */
export class LocalBus implements LiveBus {
  private readonly listeners = new Listeners();

  async notify(topic: Topic, key: string): Promise<void> {
    this.listeners.dispatch(topic, { key, local: true });
  }

  listen(topic: Topic, listener: (notice: Notice) => void): () => void {
    return this.listeners.add(topic, listener);
  }

  async close(): Promise<void> {}
}
