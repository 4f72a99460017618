import type { ToolResult } from "./types";

/** How a failed call reads for the model: the code, what went wrong, and what to try. */
export function formatError(result: ToolResult): string {
  const error = result.error;
  if (!error) return "Error: the tool failed without saying why";
  const lines = [`Error (${error.code}): ${error.message}`];
  if (error.hint) lines.push(`Hint: ${error.hint}`);
  return lines.join("\n");
}

/** The fallback for tools without a formatter: the result's fields as indented JSON. */
export function formatAsJson(result: ToolResult): string {
  const { ok: _ok, ...fields } = result;
  return JSON.stringify(fields, null, 2);
}
