import type { StoredSessionEvent } from "@coder/protocol";

export type TypedEvent<T extends StoredSessionEvent["type"]> = Extract<StoredSessionEvent, { type: T }>;

export const isType =
  <T extends StoredSessionEvent["type"]>(type: T) =>
  (e: StoredSessionEvent): e is TypedEvent<T> =>
    e.type === type;

export interface EventLogView {
  all: StoredSessionEvent[];
  /** Resolves with the first event (seen so far or to come) that matches. */
  waitFor<T extends StoredSessionEvent>(
    match: (e: StoredSessionEvent) => e is T,
    timeoutMs?: number,
  ): Promise<T>;
  waitFor(match: (e: StoredSessionEvent) => boolean, timeoutMs?: number): Promise<StoredSessionEvent>;
}

/** Collects a stream of session events so a test can wait for the one it expects. */
export function collectEvents(source: AsyncIterable<StoredSessionEvent>): EventLogView {
  const all: StoredSessionEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    for await (const event of source) {
      all.push(event);
      for (const wake of [...waiters]) wake();
    }
  })().catch(() => {});
  return {
    all,
    waitFor(match: (e: StoredSessionEvent) => boolean, timeoutMs = 10_000) {
      return new Promise<StoredSessionEvent>((resolve, reject) => {
        const check = () => {
          const hit = all.find(match);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event; saw: ${all.map((e) => e.type).join(", ")}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  } as EventLogView;
}
