import type { Hover, MarkedString, MarkupContent } from "../../lsp/types";

/** A hover's contents as one Markdown string, whichever of the protocol's three shapes it came in. */
export function hoverText(hover: Hover | null | undefined): string {
  if (!hover) return "";
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts
    .map((part: MarkedString | MarkupContent) => {
      if (typeof part === "string") return part;
      if ("kind" in part) return part.value;
      return `\`\`\`${part.language}\n${part.value}\n\`\`\``;
    })
    .map((text) => text.trim())
    .filter(Boolean)
    .join("\n\n");
}
