import type { JsonSchema } from "./json-schema";

export interface ToolDefinition {
  id: string;
  description: string;
  parameters: JsonSchema;
}

export type PromptFormat = "xml" | "json";

/**
 * The tools block of a system prompt for models without native tool calling (seed 002): the
 * definitions plus how to call one. The model answers with one call in the same format.
 */
export function renderToolsPrompt(definitions: readonly ToolDefinition[], format: PromptFormat): string {
  return format === "xml" ? renderXml(definitions) : renderJson(definitions);
}

function renderXml(definitions: readonly ToolDefinition[]): string {
  const tools = definitions
    .map(
      (d) =>
        `<tool name="${escapeXml(d.id)}">\n<description>${escapeXml(d.description)}</description>\n` +
        `<parameters>${escapeXml(JSON.stringify(d.parameters))}</parameters>\n</tool>`,
    )
    .join("\n");
  return [
    "You can use the tools below. To call one, answer with exactly one block of this form and nothing after it:",
    '<tool_call name="TOOL_NAME">{"argument": "value"}</tool_call>',
    "The body is a JSON object matching the tool's parameters schema. The result comes back in the next message.",
    "",
    `<tools>\n${tools}\n</tools>`,
  ].join("\n");
}

function renderJson(definitions: readonly ToolDefinition[]): string {
  return [
    "You can use the tools below. To call one, answer with exactly one JSON object of this form and nothing after it:",
    '{"tool": "TOOL_NAME", "args": {"argument": "value"}}',
    "`args` must match the tool's parameters schema. The result comes back in the next message.",
    "",
    JSON.stringify(definitions, null, 2),
  ].join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
