/**
 * Whether `text` matches `pattern`, where `*` stands for any run of characters (spaces and
 * slashes included) and `?` for one. A pattern ending in " *" also matches the bare prefix, so
 * `git log *` covers `git log` as well as `git log --oneline`.
 */
export function matchWildcard(pattern: string, text: string): boolean {
  if (pattern === "*") return true;
  let source = "";
  for (const ch of pattern) {
    if (ch === "*") source += "[\\s\\S]*";
    else if (ch === "?") source += "[\\s\\S]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  if (pattern.endsWith(" *")) source = `${source.slice(0, -"[\\s\\S]*".length - 1)}( [\\s\\S]*)?`;
  return new RegExp(`^${source}$`).test(text);
}
