import type { Message, ToolPart } from "@coder/protocol";
import type { AssistantContent, ModelMessage, ToolContent } from "ai";
import { completedCallOutput, type ToolOutput } from "./tool-result-output";

function toolOutput(part: ToolPart, images: boolean): ToolOutput {
  if (part.state === "completed")
    return completedCallOutput(part.result, part.output ?? JSON.stringify(part.result ?? {}), images);
  if (part.state === "error") {
    return { type: "error-text", value: part.output ?? part.result?.error?.message ?? "the call failed" };
  }
  return { type: "error-text", value: "the call did not finish: the agent was interrupted" };
}

const objectInput = (input: unknown): Record<string, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};

/**
 * The conversation as the model reads it: user prompts, and for each step of the agent its text
 * and tool calls followed by their results (with their screenshots for a model that reads
 * `images`). Reasoning, retries and errors stay in the session but are not sent back.
 */
export function toModelMessages(messages: readonly Message[], images = false): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n\n");
      if (text) out.push({ role: "user", content: text });
      continue;
    }
    let content: Exclude<AssistantContent, string> = [];
    let results: ToolContent = [];
    const endStep = () => {
      if (content.length > 0) out.push({ role: "assistant", content });
      if (results.length > 0) out.push({ role: "tool", content: results });
      content = [];
      results = [];
    };
    for (const part of message.parts) {
      if (part.type === "step-start") endStep();
      else if (part.type === "text" && part.text) content.push({ type: "text", text: part.text });
      else if (part.type === "tool" && part.parentCallId === undefined) {
        content.push({
          type: "tool-call",
          toolCallId: part.callId,
          toolName: part.tool,
          input: objectInput(part.input),
        });
        results.push({
          type: "tool-result",
          toolCallId: part.callId,
          toolName: part.tool,
          output: toolOutput(part, images),
        });
      }
    }
    endStep();
  }
  return out;
}
