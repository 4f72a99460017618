import DOMPurify, { type Config } from "dompurify";

/**
 * Hover and completion docs come from the workspace's code (docstrings, comments) through its
 * language server, which is untrusted; the client renders their Markdown to HTML. Only plain
 * formatting survives: any other element becomes its text (links and images included), scripts,
 * styles and embedded documents vanish with their content, and no attribute but `class` (used by
 * the code highlighting) is kept.
 */
const HOVER_POLICY: Config = {
  ALLOWED_TAGS: [
    "p",
    "pre",
    "code",
    "span",
    "div",
    "em",
    "strong",
    "b",
    "i",
    "del",
    "ul",
    "ol",
    "li",
    "br",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  ALLOWED_ATTR: ["class"],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // Removed elements leave their text; these (beyond DOMPurify's own list) leave nothing.
  KEEP_CONTENT: true,
  ADD_FORBID_CONTENTS: ["object", "embed"],
};

/** `html` with only the formatting above left; needs a DOM (the browser). */
export function sanitizeHtml(html: string): string {
  // Without a DOM DOMPurify hands its input back unchanged: refuse instead.
  if (!DOMPurify.isSupported) throw new Error("hover HTML can only be cleaned in a browser");
  return DOMPurify.sanitize(html, HOVER_POLICY);
}
