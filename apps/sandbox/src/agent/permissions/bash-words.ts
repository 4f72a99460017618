import type { Node } from "web-tree-sitter";

/** One word of a command as the shell would pass it, when that is known before it runs. */
export interface Word {
  /** The word after quote removal; undefined when it expands (variables, substitutions, globs). */
  value: string | undefined;
  /** The word as written. */
  text: string;
}

export const wordOf = (node: Node): Word => ({ value: literalValue(node), text: node.text });

/** What a subject shows of a word: its value where known, else what was written. */
export const shown = (word: Word): string => word.value ?? word.text;

/**
 * The value of a word that expands to exactly one known string: plain and escaped words, '…',
 * "…" without expansions, and concatenations of those. Anything the shell would expand at run
 * time — `$x`, `$(…)`, `$'…'`, globs, braces, a leading `~` — has no value here.
 */
export function literalValue(node: Node): string | undefined {
  switch (node.type) {
    case "word":
      return unquotedWord(node.text);
    case "number":
      return /^\d+$/.test(node.text) ? node.text : undefined;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      if (node.namedChildren.some((c) => c.type !== "string_content")) return undefined;
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === "\n" ? "" : ch));
    case "concatenation": {
      let value = "";
      for (const part of node.children) {
        const partValue = literalValue(part);
        if (partValue === undefined) return undefined;
        value += partValue;
      }
      return value;
    }
    default:
      return undefined;
  }
}

/** An unquoted word with its backslash escapes removed, unless it would expand. */
function unquotedWord(text: string): string | undefined {
  let value = "";
  let plain = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\\") {
      const next = text[i + 1];
      if (next !== undefined && next !== "\n") value += next;
      i++;
      continue;
    }
    value += ch;
    plain += ch;
  }
  if (/[*?$`]/.test(plain) || plain.startsWith("~")) return undefined;
  if (/\[.*\]/.test(plain) || /\{.*\}/.test(plain)) return undefined;
  return value;
}
