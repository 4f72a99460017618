import { LRUCache } from "lru-cache";
import type { LiveBus } from "../events/live-bus";
import { accessWrites } from "./access-writes";

/** How long an answer is remembered: what changes without a write here or a notice (expiry) counts within it. */
export const ACCESS_TTL_MS = 500;
/** Answers kept at most (a flood of unknown cookies evicts the oldest, never grows memory). */
const MAX_ANSWERS = 20_000;

/**
 * What the checks of every request read from the database (who a session cookie is, a user's
 * role on a workspace, a preview cookie's holder, a port's visibility), remembered for at most
 * ACCESS_TTL_MS, so a page's requests and a client's calls do not ask the same questions each
 * time. Everything is forgotten at once when this instance writes to a table those answers come
 * from (`writes`, the plugin on the service's database: a logout, a suspension, a revoked link or
 * share, a role or visibility change), and when another instance says it did (`listen`, the live
 * bus's `access` topic), so a revocation still refuses the very next request. A lookup still in
 * flight when that happens is forgotten too: its answer may predate the change.
 */
export class AccessCache {
  /** Off: every lookup goes to the database (a bench compares both ways in one run). */
  enabled = true;
  private readonly answers = new LRUCache<string, Promise<unknown>>({ max: MAX_ANSWERS, ttl: ACCESS_TTL_MS });
  private bus: LiveBus | undefined;
  private forgotten = 0;

  /** The Kysely plugin that forgets everything (here, and on the other instances) after each access write. */
  readonly writes = accessWrites(() => {
    this.forget();
    // Others forget when they hear it; a lost notice is covered by the TTL.
    this.bus?.notify("access", "write").catch(() => undefined);
  });

  /** A cache that never remembers: for services and tools whose database writes it cannot see. */
  static none(): AccessCache {
    const cache = new AccessCache();
    cache.enabled = false;
    return cache;
  }

  /** The remembered answer for `key`, or `load`'s (a failed load is not remembered). */
  remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.enabled) return load();
    const known = this.answers.get(key) as Promise<T> | undefined;
    if (known) return known;
    const answer = load();
    this.answers.set(key, answer);
    answer.catch(() => {
      if (this.answers.peek(key) === answer) this.answers.delete(key);
    });
    return answer;
  }

  /**
   * How many times everything was forgotten: an answer kept elsewhere (a connection's last
   * decision) holds only while this has not moved since it was read.
   */
  get epoch(): number {
    return this.forgotten;
  }

  /** Forgets every answer. */
  forget(): void {
    this.forgotten++;
    this.answers.clear();
  }

  /** Forgets everything whenever another instance wrote to an access table; returns the function that stops it. */
  listen(bus: LiveBus): () => void {
    this.bus = bus;
    const stop = bus.listen("access", (notice) => {
      if (!notice.local) this.forget();
    });
    return () => {
      stop();
      this.bus = undefined;
    };
  }
}
