import { parse } from "yaml";

export interface ParsedSkillFile {
  /** The front matter's scalar fields as text (keys lower-cased). */
  fields: Record<string, string>;
  /** The text after the front matter. */
  body: string;
}

/**
 * Reads the YAML front matter of a SKILL.md. A skill may come from the repository, so its front
 * matter is hostile: aliases are bounded (no "billion laughs"), and front matter that is not a
 * mapping of scalars counts as none; the skill still loads with its body.
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normalized);
  if (!match) return { fields: {}, body: normalized };
  return { fields: scalarFields(match[1] ?? ""), body: normalized.slice(match[0].length) };
}

function scalarFields(yaml: string): Record<string, string> {
  let document: unknown;
  try {
    document = parse(yaml, { maxAliasCount: 16, uniqueKeys: false });
  } catch {
    return {};
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) return {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(document)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      fields[key.toLowerCase()] = String(value).trim();
  }
  return fields;
}
