/** Strings longer than this are cut however much budget is left: one field never takes it all. */
const MAX_STRING_CHARS = 16 * 1024;
/** Nesting below this depth is replaced by a marker. */
const MAX_DEPTH = 8;

/** The size of a value as JSON, in UTF-16 code units (close enough to bytes for a budget). */
export function jsonSize(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/** Cuts text to `max` characters with a marker saying how much was left out. */
export function cutText(text: string, max: number, what = "characters"): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}... [cut by the service: ${text.length - max} more ${what}]`;
}

/**
 * A copy of a JSON value that takes about `budget` characters at most: long strings are cut,
 * lists and objects stop when the budget is spent, deep nesting is dropped, each with a marker
 * saying so. Walks only as much of the value as it keeps (plus one step).
 */
export function shrinkJson(value: unknown, budget: number): unknown {
  const left = { chars: budget };
  return walk(value, 0, left);
}

function walk(value: unknown, depth: number, left: { chars: number }): unknown {
  if (typeof value === "string") {
    const kept = cutText(value, Math.max(0, Math.min(MAX_STRING_CHARS, left.chars)));
    left.chars -= jsonSize(kept); // escapes included: control characters take six each
    return kept;
  }
  if (value === null || typeof value !== "object") {
    left.chars -= 8;
    return typeof value === "number" || typeof value === "boolean" ? value : null;
  }
  if (depth >= MAX_DEPTH) {
    left.chars -= 8;
    return "[cut by the service: nested too deep]";
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (left.chars <= 0) {
        out.push(`[cut by the service: ${value.length - out.length} more items]`);
        break;
      }
      out.push(walk(item, depth + 1, left));
    }
    return out;
  }
  // Built as entries: a key named "__proto__" stays a plain field.
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (left.chars <= 0) {
      entries.push(["...", "[cut by the service: more fields]"]);
      break;
    }
    const name = cutText(key, 256);
    left.chars -= jsonSize(name) + 1;
    entries.push([name, walk(item, depth + 1, left)]);
  }
  return Object.fromEntries(entries);
}
