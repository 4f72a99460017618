/**
 * Hover and completion docs come from the workspace's code (docstrings, comments), which is
 * untrusted; the client renders their Markdown to HTML. Only plain formatting survives: any other
 * element becomes its text, scripts and styles vanish, and no attribute but `class` (used by the
 * code highlighting) is kept.
 */

const KEEP = new Set([
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
]);
const DROP = new Set(["script", "style", "iframe", "object", "embed", "template", "noscript", "svg", "math"]);

export type ElementPolicy = "keep" | "text" | "drop";

export function elementPolicy(tag: string): ElementPolicy {
  const name = tag.toLowerCase();
  if (KEEP.has(name)) return "keep";
  return DROP.has(name) ? "drop" : "text";
}

export function keepsAttribute(name: string): boolean {
  return name.toLowerCase() === "class";
}

/** `html` with only the formatting above left; needs a DOM (the browser). */
export function sanitizeHtml(html: string): string {
  // DOMParser builds an inert document: nothing in it loads or runs while it is cleaned.
  const body = new DOMParser().parseFromString(html, "text/html").body;
  clean(body);
  return body.innerHTML;
}

function clean(parent: Element): void {
  for (const child of [...parent.children]) {
    const policy = elementPolicy(child.tagName);
    if (policy === "drop") {
      child.remove();
    } else if (policy === "text") {
      child.replaceWith(child.ownerDocument.createTextNode(child.textContent ?? ""));
    } else {
      for (const attribute of [...child.attributes]) {
        if (!keepsAttribute(attribute.name)) child.removeAttribute(attribute.name);
      }
      clean(child);
    }
  }
}
