import type { ModelInfo } from "@coder/protocol";
import type { ToolResult } from "@coder/tools";
import type { ToolContent } from "ai";

export type ToolOutput = Extract<ToolContent[number], { type: "tool-result" }>["output"];

/**
 * Anthropic's and OpenAI's models read images in a tool's result; an OpenAI-compatible server
 * (often a local model) may not, and gets the text alone.
 */
export function takesImages(model: Pick<ModelInfo, "provider">): boolean {
  return model.provider !== "openai-compatible";
}

/** The PNG a result carries (`preview`'s screenshot), when it carries one. */
function screenshotOf(result: ToolResult | undefined): { data: string; mediaType: string } | undefined {
  const shot = result?.screenshot as { media_type?: unknown; data?: unknown } | undefined;
  if (shot?.media_type !== "image/png" || typeof shot.data !== "string") return undefined;
  return { data: shot.data, mediaType: shot.media_type };
}

/**
 * What the model reads of a call that went through: the tool's text, and the screenshot it took
 * as an image for a model that reads `images`.
 */
export function completedCallOutput(
  result: ToolResult | undefined,
  text: string,
  images: boolean,
): ToolOutput {
  const image = images ? screenshotOf(result) : undefined;
  if (!image) return { type: "text", value: text };
  return {
    type: "content",
    value: [
      { type: "text", text },
      { type: "image-data", ...image },
    ],
  };
}
