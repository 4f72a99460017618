import { formatError } from "../../framework/format";
import type { TodoItem, ToolContext, ToolResult } from "../../framework/types";

/** What todoread and todowrite both answer: the session's whole list. */
export function todoListResult(ctx: ToolContext): ToolResult {
  const items = ctx.session.todos;
  return {
    ok: true,
    session_id: ctx.session.id,
    items,
    count: items.length,
    in_progress: items.filter((t) => t.status === "in_progress").length,
  };
}

const MARK: Record<TodoItem["status"], string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]" };

export function formatTodoList(result: ToolResult): string {
  if (result.error) return formatError(result);
  const items = result.items as TodoItem[];
  if (items.length === 0) return "The todo list is empty.";
  const done = items.filter((t) => t.status === "completed").length;
  const lines = items.map((t) => `${MARK[t.status]} ${t.content} (${t.priority}, id ${t.id})`);
  return [`${done}/${items.length} done`, ...lines].join("\n");
}
