import type { Part, SessionEvent } from "@coder/protocol";
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema";

/** Text and reasoning parts keep their text in its own column, so a delta is an SQL append. */
const TEXT_PARTS = new Set(["text", "reasoning"]);

export function splitPart(part: Part): { text: string; data: string } {
  if (!TEXT_PARTS.has(part.type)) return { text: "", data: JSON.stringify(part) };
  const { text, ...rest } = part as Part & { text: string };
  return { text, data: JSON.stringify(rest) };
}

export function joinPart(row: { type: string; text: string; data: string }): Part {
  const data = JSON.parse(row.data) as Part;
  return TEXT_PARTS.has(row.type) ? ({ ...data, text: row.text } as Part) : data;
}

/**
 * Keeps the tables that describe a session's current state (turns, messages, parts, todos, the
 * session row) in step with its events, inside the transaction that stores the event.
 */
export async function project(
  trx: Transaction<Database>,
  sessionId: string,
  event: SessionEvent,
  eventId: number,
  at: string,
  /** The service instance storing the event: a turn it starts is its to run. */
  instanceId: string,
): Promise<void> {
  switch (event.type) {
    case "session.updated": {
      const { title, agent, model } = event.session;
      await trx
        .updateTable("sessions")
        .set({ title, agent, model, updated_at: at })
        .where("id", "=", sessionId)
        .execute();
      return;
    }
    case "turn.started":
    case "turn.finished": {
      const t = event.turn;
      const row = {
        id: t.id,
        session_id: sessionId,
        user_message_id: t.userMessageId,
        assistant_message_id: t.assistantMessageId,
        status: t.status,
        error: t.error,
        started_at: t.startedAt,
        ended_at: t.endedAt,
        instance_id: instanceId,
      };
      await trx
        .insertInto("turns")
        .values(row)
        .onConflict((oc) =>
          oc.column("id").doUpdateSet({
            assistant_message_id: row.assistant_message_id,
            status: row.status,
            error: row.error,
            ended_at: row.ended_at,
          }),
        )
        .execute();
      await trx.updateTable("sessions").set({ updated_at: at }).where("id", "=", sessionId).execute();
      // A request the turn left waiting (aborted, interrupted) waits no more; answered ones stay as
      // the record of who answered.
      if (event.type === "turn.finished")
        await trx
          .deleteFrom("pending_requests")
          .where("session_id", "=", sessionId)
          .where("answer", "is", null)
          .execute();
      return;
    }
    case "message.created": {
      const m = event.message;
      await trx
        .insertInto("messages")
        .values({
          id: m.id,
          session_id: sessionId,
          role: m.role,
          agent: m.agent,
          model: m.model,
          created_at: m.createdAt,
          position: eventId,
          author_kind: m.author?.kind ?? null,
          author_name: m.author?.name ?? null,
        })
        .execute();
      return;
    }
    case "part.updated": {
      const { text, data } = splitPart(event.part);
      await trx
        .insertInto("parts")
        .values({
          id: event.part.id,
          message_id: event.part.messageId,
          session_id: sessionId,
          type: event.part.type,
          text,
          data,
          position: eventId,
        })
        .onConflict((oc) => oc.column("id").doUpdateSet({ text, data }))
        .execute();
      return;
    }
    case "part.delta": {
      await trx
        .updateTable("parts")
        .set((eb) => ({ text: eb("text", "||", event.delta) }))
        .where("id", "=", event.partId)
        .execute();
      return;
    }
    case "todos.updated": {
      const items = JSON.stringify(event.todos);
      await trx
        .insertInto("todos")
        .values({ session_id: sessionId, items })
        .onConflict((oc) => oc.column("session_id").doUpdateSet({ items }))
        .execute();
      return;
    }
    case "approval.asked":
    case "question.asked":
      // Listed by every instance, answerable on any (interaction/pending-requests.ts).
      await trx
        .insertInto("pending_requests")
        .values({
          id: event.request.id,
          session_id: sessionId,
          kind: event.type === "approval.asked" ? "approval" : "question",
          request: JSON.stringify(event.request),
          answer: null,
          created_at: at,
        })
        .execute();
      return;
    case "approval.replied":
    case "question.replied":
      // The row already holds the answer (and who gave it): it is listed as waiting no more.
      return;
    case "turn.changes":
    case "verify.finished":
    case "verify.skipped":
      // Snapshot state is written by the runtime itself (it holds the snapshot ids); these tell watchers.
      return;
  }
}
