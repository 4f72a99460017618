import type { Author } from "@coder/protocol";

/** How many answered requests are remembered; a second answer comes seconds after the first. */
const REMEMBERED = 1000;

interface Answered {
  sessionId: string;
  by: Author | undefined;
}

/**
 * Approvals and questions already answered, and by whom, so that a second answer to the same
 * request (another person clicked too) is told who came first instead of "not found". In memory,
 * bounded: the oldest are forgotten first.
 */
export class AnsweredRequests {
  private readonly byId = new Map<string, Answered>();

  record(sessionId: string, requestId: string, by: Author | undefined): void {
    this.byId.set(requestId, { sessionId, by });
    if (this.byId.size > REMEMBERED) {
      const oldest = this.byId.keys().next();
      if (!oldest.done) this.byId.delete(oldest.value);
    }
  }

  /** Who answered the request, when it was answered in that session and is still remembered. */
  find(sessionId: string, requestId: string): { by: Author | undefined } | undefined {
    const answered = this.byId.get(requestId);
    return answered?.sessionId === sessionId ? answered : undefined;
  }
}
