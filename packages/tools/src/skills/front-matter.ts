export interface ParsedSkillFile {
  /** `key: value` pairs of the front matter (keys lower-cased). */
  fields: Record<string, string>;
  /** The text after the front matter. */
  body: string;
}

/**
 * Reads the YAML-ish front matter of a SKILL.md: `key: value` lines (quotes optional) and folded or
 * literal blocks (`key: >` / `key: |` followed by indented lines). Anything fancier is ignored.
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normalized);
  if (!match) return { fields: {}, body: normalized };
  const fields: Record<string, string> = {};
  const lines = (match[1] ?? "").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const field = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(lines[i] ?? "");
    if (!field) continue;
    const key = (field[1] ?? "").toLowerCase();
    const value = (field[2] ?? "").trim();
    if (value === ">" || value === "|" || value === ">-" || value === "|-") {
      const block: string[] = [];
      while (i + 1 < lines.length && /^(\s+|$)/.test(lines[i + 1] ?? ""))
        block.push((lines[++i] ?? "").trim());
      fields[key] = block.join(value.startsWith(">") ? " " : "\n").trim();
    } else {
      fields[key] = unquote(value);
    }
  }
  return { fields, body: normalized.slice(match[0].length) };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? (quoted[2] ?? "") : value;
}
