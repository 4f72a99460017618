import {
  type ApprovalReply,
  type ApprovalRequest,
  type Author,
  approvalReply,
  author,
  type QuestionRequest,
} from "@coder/protocol";
import { z } from "zod";
import type { Db } from "../../db/database";
import { NamedError } from "../../errors/named-error";
import type { LiveBus, Notice } from "../../events/live-bus";

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

type Kind = "approval" | "question";

interface Waiting {
  sessionId: string;
  kind: Kind;
  settle(answer: unknown): void;
}

/** The person was not there to answer: the turn was aborted while a request waited. */
export class RequestCancelled extends NamedError {
  constructor() {
    super("the request was cancelled");
  }
}

// What an instance wrote into `answer` (our own rows, but read back like anything stored).
const approvalAnswer = z.object({
  reply: approvalReply,
  message: z.string().optional(),
  by: author.optional(),
});
const questionAnswer = z.object({ answers: z.array(z.array(z.string())).nullable(), by: author.optional() });

/**
 * Approvals and questions waiting for a person. Each is a row of `pending_requests`, written with
 * its `*.asked` event, so every instance lists them and any instance can answer: the first answer
 * is written into the row (only while it has none) and announced on the live bus, and the instance
 * whose turn waits (the only one that holds it here, in memory) reads it and goes on. An answered
 * row is kept as the record of who answered, so a later answer is told whose came first; the end
 * of a turn removes the rows it left unanswered. A service that stops ends its turns, and with
 * them their requests.
 */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly db: Db,
    private readonly bus: LiveBus,
    private readonly log: (line: string) => void,
  ) {
    bus.listen("reply", (notice) => this.collect(notice));
  }

  /** Waits for the reply to an approval asked in `sessionId` (the session the person looks at). */
  approval(sessionId: string, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    return this.wait(sessionId, "approval", request.id, signal, (a) => approvalAnswer.parse(a));
  }

  /** Waits for the answers to a question. */
  question(sessionId: string, request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    return this.wait(sessionId, "question", request.id, signal, (a) => questionAnswer.parse(a));
  }

  private wait<A>(
    sessionId: string,
    kind: Kind,
    requestId: string,
    signal: AbortSignal,
    parse: (answer: unknown) => A,
  ): Promise<A> {
    const answered = new Promise<A>((resolve, reject) => {
      if (signal.aborted) return reject(new RequestCancelled());
      const onAbort = () => {
        this.waiting.delete(requestId);
        reject(new RequestCancelled());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(requestId, {
        sessionId,
        kind,
        settle: (answer) => {
          signal.removeEventListener("abort", onAbort);
          this.waiting.delete(requestId);
          try {
            resolve(parse(answer));
          } catch (error) {
            reject(error);
          }
        },
      });
    });
    // An answer may have been written before this instance started waiting for it.
    this.collect({ key: requestId, local: true });
    return answered;
  }

  /** Answers a waiting approval; false when there is none with that id in that session. */
  respond(sessionId: string, requestId: string, answer: ApprovalAnswer): Promise<boolean> {
    return this.write(sessionId, "approval", requestId, answer);
  }

  answer(sessionId: string, requestId: string, answer: QuestionAnswer): Promise<boolean> {
    return this.write(sessionId, "question", requestId, answer);
  }

  /**
   * Who answered a request of the session that is no longer waiting: `{by}` (absent `by`: not
   * recorded) while its answered row is kept (until the session is deleted), or null when it never
   * got an answer (its turn ended first) or does not exist.
   */
  async answeredBy(sessionId: string, requestId: string): Promise<{ by: Author | undefined } | null> {
    const row = await this.db
      .selectFrom("pending_requests")
      .select(["answer"])
      .where("id", "=", requestId)
      .where("session_id", "=", sessionId)
      .where("answer", "is not", null)
      .executeTakeFirst();
    if (!row?.answer) return null;
    const parsed = z.object({ by: author.optional() }).safeParse(JSON.parse(row.answer));
    return { by: parsed.success ? parsed.data.by : undefined };
  }

  /** The first answer wins: a row already answered (or gone) is left alone. */
  private async write(sessionId: string, kind: Kind, requestId: string, answer: object): Promise<boolean> {
    const result = await this.db
      .updateTable("pending_requests")
      .set({ answer: JSON.stringify(answer) })
      .where("id", "=", requestId)
      .where("session_id", "=", sessionId)
      .where("kind", "=", kind)
      .where("answer", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await this.bus.notify("reply", requestId);
    return true;
  }

  /** Hands the answers that arrived to the requests waiting here (a failed read waits for the next notice). */
  private collect(notice: Notice): void {
    this.read(notice).catch((error: Error) => this.log(`reading answers: ${error.message}`));
  }

  private async read({ key }: Notice): Promise<void> {
    const ids = key === null ? [...this.waiting.keys()] : this.waiting.has(key) ? [key] : [];
    if (ids.length === 0) return;
    const rows = await this.db
      .selectFrom("pending_requests")
      .select(["id", "session_id", "kind", "answer"])
      .where("id", "in", ids)
      .where("answer", "is not", null)
      .execute();
    for (const row of rows) {
      const waiting = this.waiting.get(row.id);
      if (!waiting || waiting.sessionId !== row.session_id || waiting.kind !== row.kind) continue;
      waiting.settle(JSON.parse(row.answer ?? "null"));
    }
  }

  /** The requests of a session still waiting for a person (read in `db`, a transaction maybe). */
  async list(
    sessionId: string,
    db: Db = this.db,
  ): Promise<{ approvals: ApprovalRequest[]; questions: QuestionRequest[] }> {
    const rows = await db
      .selectFrom("pending_requests")
      .select(["kind", "request"])
      .where("session_id", "=", sessionId)
      .where("answer", "is", null)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    const of = (kind: Kind) => rows.filter((r) => r.kind === kind).map((r) => JSON.parse(r.request));
    return { approvals: of("approval"), questions: of("question") };
  }
}
