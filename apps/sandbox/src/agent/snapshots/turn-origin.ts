import type { TurnRef, TurnStatus } from "@coder/protocol";
import type { Db } from "../../db/database";
import { AgentError } from "../errors";

/** Who wrote a turn's prompt: their name, and their account's id when they have one. */
export type Prompter = { kind: "user"; userId: string; name: string } | { kind: "guest"; name: string };

/** What a commit of a turn is made from: the turn's state, its prompt, and who wrote it. */
export interface TurnOrigin {
  status: TurnStatus;
  prompt: string;
  /** Null for a turn nobody prompted (a check's follow-up) or whose writer is no longer known. */
  prompter: Prompter | null;
}

/**
 * Reads a turn's origin. The prompt's message keeps only the writer's name; the account behind it
 * is the actor of the `agent.turn` entry the audit trail recorded for this turn (session.prompt).
 */
export async function turnOrigin(db: Db, ref: TurnRef): Promise<TurnOrigin> {
  const turn = await db
    .selectFrom("turns")
    .innerJoin("messages", "messages.id", "turns.user_message_id")
    .select(["turns.status", "turns.user_message_id", "messages.author_kind", "messages.author_name"])
    .where("turns.id", "=", ref.turnId)
    .where("turns.session_id", "=", ref.sessionId)
    .executeTakeFirst();
  if (!turn) throw new AgentError("not_found", "this turn does not exist in the session");
  const parts = await db
    .selectFrom("parts")
    .select("text")
    .where("message_id", "=", turn.user_message_id)
    .where("type", "=", "text")
    .orderBy("position")
    .execute();
  const prompt = parts.map((p) => p.text).join("\n");
  const name = turn.author_name;
  if (name === null) return { status: turn.status as TurnStatus, prompt, prompter: null };
  const entries = await db
    .selectFrom("audit_events")
    .select(["actor_kind", "actor_id", "detail"])
    .where("action", "=", "agent.turn")
    .where("target", "=", ref.sessionId)
    .execute();
  const recorded = entries.find((e) => {
    try {
      return (JSON.parse(e.detail ?? "null") as { turnId?: unknown } | null)?.turnId === ref.turnId;
    } catch {
      return false;
    }
  });
  const prompter: Prompter =
    recorded?.actor_kind === "user" && recorded.actor_id !== null
      ? { kind: "user", userId: recorded.actor_id, name }
      : { kind: "guest", name };
  return { status: turn.status as TurnStatus, prompt, prompter };
}
