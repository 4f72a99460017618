/** How many identical calls in a row make the agent stop and ask. */
export const REPEAT_LIMIT = 3;

/** Canonical JSON: the same arguments in another key order are the same call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Notices an agent going round in circles: the same tool with the same arguments several times in
 * a row. `record` returns how many times in a row this exact call has now been made.
 */
export class RepeatDetector {
  private last: string | undefined;
  private count = 0;

  record(tool: string, args: unknown): number {
    const key = `${tool}\u0000${canonical(args)}`;
    this.count = key === this.last ? this.count + 1 : 1;
    this.last = key;
    return this.count;
  }

  /** After the person let it go on, counting starts again. */
  reset(): void {
    this.last = undefined;
    this.count = 0;
  }
}
