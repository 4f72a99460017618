import type { ToolDefinition } from "@coder/protocol";
import { jsonSchema, type ToolSet, tool } from "ai";
import type { Outcome } from "../tools/outcome";
import { completedCallOutput } from "./tool-result-output";

/** Runs one call of the model's (the turn decides how: permissions, queueing, recording). */
export type ExecuteCall = (toolName: string, toolCallId: string, input: unknown) => Promise<Outcome>;

/**
 * Tool definitions as the AI SDK takes them. The schema is passed as JSON Schema without
 * validation here: the tools validate their own arguments and tell the model what is wrong.
 * The model reads the tool's text, marked as an error when the call failed, and a screenshot
 * as an image when it reads `images`.
 */
export function toolSet(
  definitions: readonly ToolDefinition[],
  execute: ExecuteCall,
  images: boolean,
): ToolSet {
  return Object.fromEntries(
    definitions.map((d) => [
      d.id,
      tool<unknown, Outcome>({
        description: d.description,
        inputSchema: jsonSchema(d.parameters),
        execute: (input, { toolCallId }) => execute(d.id, toolCallId, input),
        toModelOutput: ({ output }) =>
          output.result.ok
            ? completedCallOutput(output.result, output.output, images)
            : { type: "error-text", value: output.output },
      }),
    ]),
  );
}
