import { z } from "zod";
import { defineTool } from "../../framework/types";
import { formatTodoList, todoListResult } from "../todowrite/todos";
import description from "./todoread.txt";

export const todoreadTool = defineTool({
  id: "todoread",
  description,
  parameters: z.object({}),
  facts: { runsIn: "service", reads: "none", changes: "none", todoList: "reads" },
  async execute(_args, ctx) {
    return todoListResult(ctx);
  },
  format: formatTodoList,
});
