import type { ApprovalReply, ApprovalRequest, Author, QuestionRequest } from "@coder/protocol";

export interface ApprovalAnswer {
  reply: ApprovalReply;
  message?: string;
  /** Who answered (recorded with the reply). */
  by?: Author;
}

export interface QuestionAnswer {
  /** Null when the person declined. */
  answers: string[][] | null;
  by?: Author;
}

interface Waiting<R, A> {
  sessionId: string;
  request: R;
  settle(answer: A): void;
}

/** The person was not there to answer: the turn was aborted while a request waited. */
export class RequestCancelled extends Error {
  constructor() {
    super("the request was cancelled");
    this.name = "RequestCancelled";
  }
}

/**
 * Approvals and questions waiting for a person. They live in memory only: a service restart ends
 * the turn that asked, and with it the request.
 */
export class PendingRequests {
  private readonly approvals = new Map<string, Waiting<ApprovalRequest, ApprovalAnswer>>();
  private readonly questions = new Map<string, Waiting<QuestionRequest, QuestionAnswer>>();

  /** Waits for the reply to an approval asked in `sessionId` (the session the person looks at). */
  approval(sessionId: string, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    return this.wait(this.approvals, sessionId, request, signal);
  }

  /** Waits for the answers to a question. */
  question(sessionId: string, request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    return this.wait(this.questions, sessionId, request, signal);
  }

  private wait<R extends { id: string }, A>(
    map: Map<string, Waiting<R, A>>,
    sessionId: string,
    request: R,
    signal: AbortSignal,
  ): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      if (signal.aborted) return reject(new RequestCancelled());
      const onAbort = () => {
        map.delete(request.id);
        reject(new RequestCancelled());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      map.set(request.id, {
        sessionId,
        request,
        settle: (answer) => {
          signal.removeEventListener("abort", onAbort);
          map.delete(request.id);
          resolve(answer);
        },
      });
    });
  }

  /** Settles a waiting approval; false when there is none with that id in that session. */
  respond(sessionId: string, requestId: string, answer: ApprovalAnswer): boolean {
    const waiting = this.approvals.get(requestId);
    if (!waiting || waiting.sessionId !== sessionId) return false;
    waiting.settle(answer);
    return true;
  }

  answer(sessionId: string, requestId: string, answer: QuestionAnswer): boolean {
    const waiting = this.questions.get(requestId);
    if (!waiting || waiting.sessionId !== sessionId) return false;
    waiting.settle(answer);
    return true;
  }

  list(sessionId: string): { approvals: ApprovalRequest[]; questions: QuestionRequest[] } {
    const of = <R>(map: Map<string, Waiting<R, unknown>>) =>
      [...map.values()].filter((w) => w.sessionId === sessionId).map((w) => w.request);
    return { approvals: of(this.approvals), questions: of(this.questions) };
  }
}
