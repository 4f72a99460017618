/** The server's requests waiting for a browser's answer; more than this and the oldest is forgotten. */
const MAX_WAITING = 256;

type Id = number | string;

const key = (id: Id) => `${typeof id}:${id}`;

/**
 * The requests a language server sent to the browser (registrations, progress, messages) that the
 * browser has not answered yet. A browser's response reaches the server only if it answers one of
 * them, once: otherwise it could answer a request the service answers itself (the server's
 * configuration) by guessing its id first.
 */
export class ServerRequests {
  private readonly waiting = new Set<string>();

  sentToBrowser(id: Id | null): void {
    if (id === null) return;
    this.waiting.add(key(id));
    if (this.waiting.size > MAX_WAITING) {
      const oldest = this.waiting.values().next().value;
      if (oldest !== undefined) this.waiting.delete(oldest);
    }
  }

  /** Whether `id` answers a request still waiting; it then stops waiting. */
  answered(id: Id | null): boolean {
    return id !== null && this.waiting.delete(key(id));
  }
}
