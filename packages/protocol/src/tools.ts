import { z } from "zod";
import { workspaceId } from "./workspace";

export const toolDefinition = z.object({
  id: z.string(),
  description: z.string(),
  /** JSON Schema of the tool's parameters, as given to the model. */
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolDefinition = z.infer<typeof toolDefinition>;

export const toolErrorCode = z.enum([
  "unknown_tool",
  "invalid_args",
  "permission_denied",
  "not_found",
  "is_directory",
  "binary_file",
  "conflict",
  "stale_file",
  "timeout",
  "unavailable",
  "io_error",
  "rejected",
  "aborted",
]);
export type ToolErrorCode = z.infer<typeof toolErrorCode>;

/** What every tool returns: `ok` plus tool-specific fields, or a typed error. */
export const toolResult = z
  .object({
    ok: z.boolean(),
    error: z.object({ code: toolErrorCode, message: z.string(), hint: z.string().optional() }).optional(),
  })
  .loose();
export type ToolResult = z.infer<typeof toolResult>;

export const toolsListInput = z.object({ workspaceId });

export const toolsExecuteInput = z.object({
  workspaceId,
  tool: z.string().min(1, "name the tool to run"),
  args: z.record(z.string(), z.unknown()).default({}),
  /** Tool state (read-before-write, todos) is kept per session. */
  sessionId: z.string().min(1).max(128).default("api"),
});

/** The result of `tools.execute`: the structured result and the text the model would see. */
export const toolsExecuteResult = z.object({ result: toolResult, output: z.string() });
export type ToolsExecuteResult = z.infer<typeof toolsExecuteResult>;
