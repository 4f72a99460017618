import type { ToolResult } from "@coder/tools";

/** What one tool call of the model came to. */
export interface Outcome {
  result: ToolResult;
  /** The text the model reads. */
  output: string;
  /** The person rejected the call without a word: the turn stops here. */
  endTurn?: boolean;
}
