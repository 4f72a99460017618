import { z } from "zod";
import { defineTool } from "../../framework/types";
import { formatTodoList, todoListResult } from "./todos";
import description from "./todowrite.txt";

const todoItem = z.object({
  id: z.string().min(1).describe("Stable identifier of the item"),
  content: z.string().min(1).describe("What to do"),
  status: z.enum(["pending", "in_progress", "completed"]),
  priority: z.enum(["high", "medium", "low"]),
});

const parameters = z.object({
  todos: z
    .array(todoItem)
    .describe("The complete, updated todo list")
    .superRefine((todos, check) => {
      const active = todos.filter((t) => t.status === "in_progress");
      if (active.length > 1) {
        check.addIssue({
          code: "custom",
          message: `at most one item may be in_progress, found ${active.length} (${active.map((t) => t.id).join(", ")})`,
        });
      }
      const ids = todos.map((t) => t.id);
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (repeated.length > 0) {
        check.addIssue({
          code: "custom",
          message: `ids must be unique, repeated: ${[...new Set(repeated)].join(", ")}`,
        });
      }
    }),
});

export const todowriteTool = defineTool({
  id: "todowrite",
  description,
  parameters,
  facts: { runsIn: "service", reads: "none", changes: "none", todoList: "writes" },
  async execute(args, ctx) {
    ctx.session.todos = args.todos.map((t) => ({ ...t }));
    return todoListResult(ctx);
  },
  format: formatTodoList,
});
