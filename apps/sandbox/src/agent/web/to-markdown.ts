import TurndownService from "turndown";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
});
// Page furniture the model has no use for.
turndown.remove(["script", "style", "noscript", "iframe", "object", "embed", "canvas", "template"]);
turndown.remove((node) => node.nodeName.toLowerCase() === "svg");

/** HTML as Markdown: headings, lists, links, code blocks kept; scripts and styles dropped. */
export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}

/** HTML as plain text: the Markdown with its link targets and markup removed. */
export function htmlToText(html: string): string {
  return htmlToMarkdown(html)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/^```[^\n]*$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
