import type { TextQuery } from "@coder/protocol";

/**
 * What a match becomes with the replacement, for the preview. The replace itself runs ripgrep in
 * the workspace; here a regex replacement is read the JavaScript way (`$1`, `${name}` as
 * `$<name>`), close enough to show, and shown as typed when JavaScript cannot read the pattern.
 */
export function previewReplacement(query: TextQuery, matched: string, replacement: string): string {
  if (!query.regex) return replacement;
  try {
    const flags = query.caseSensitive ? "u" : "iu";
    const js = replacement.replace(/\$\{(\w+)\}/g, "$$<$1>");
    return matched.replace(new RegExp(query.pattern, flags), js);
  } catch {
    return replacement;
  }
}
