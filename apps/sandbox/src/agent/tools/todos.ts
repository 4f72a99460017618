import type { TodoItem } from "@coder/tools";
import type { Db } from "../../db/database";
import type { TurnState } from "../loop/turn-state";

/** A session's todo list, kept in the database so it survives restarts. */
export async function loadTodos(db: Db, sessionId: string): Promise<TodoItem[]> {
  const row = await db
    .selectFrom("todos")
    .select("items")
    .where("session_id", "=", sessionId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.items) as TodoItem[]) : [];
}

/** Stores the list through the session's events, so the UI sees it change. */
export async function saveTodos(turn: TurnState, todos: TodoItem[]): Promise<void> {
  await turn.recorder.emit({ type: "todos.updated", todos });
}
