import { MAX_SPILL_BYTES } from "./spill";

/** What the model may see of one tool call (spec §4). */
export const MAX_OUTPUT_LINES = 2000;
export const MAX_OUTPUT_BYTES = 50 * 1024;

export interface Truncated {
  text: string;
  /** Where the full text was saved, when it had to be cut. */
  spillPath?: string;
}

/**
 * Caps model-facing text at MAX_OUTPUT_LINES lines / MAX_OUTPUT_BYTES bytes. Longer text is given
 * to `save` whole (up to MAX_SPILL_BYTES), which answers where it went, and the model is told how
 * to page through it there with `read` or search it with `grep`.
 */
export async function truncateOutput(
  text: string,
  save: (text: string) => Promise<string>,
): Promise<Truncated> {
  const lines = text.split("\n");
  if (lines.length <= MAX_OUTPUT_LINES && Buffer.byteLength(text) <= MAX_OUTPUT_BYTES) return { text };

  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (kept.length >= MAX_OUTPUT_LINES || bytes + size > MAX_OUTPUT_BYTES) break;
    kept.push(line);
    bytes += size;
  }
  // A single enormous line still gets a readable head rather than nothing.
  if (kept.length === 0) kept.push(cutToBytes(lines[0] ?? "", MAX_OUTPUT_BYTES));

  const omitted = `\n\n... output truncated: ${lines.length - kept.length} more line(s) not shown.\n`;
  const whole = Buffer.byteLength(text) <= MAX_SPILL_BYTES;
  let spillPath: string;
  try {
    spillPath = await save(whole ? text : cutToBytes(text, MAX_SPILL_BYTES));
  } catch (error) {
    const why = `The full output could not be saved (${(error as Error).message}); narrow the call instead.`;
    return { text: kept.join("\n") + omitted + why };
  }
  const saved = whole ? "The full output" : `The first ${MAX_SPILL_BYTES / (1024 * 1024)} MB of the output`;
  const hint =
    `${saved} was saved to ${spillPath}. Use read with that path and an offset ` +
    `(e.g. offset ${kept.length + 1}) to page through it, or grep with that path to search it.`;
  return { text: kept.join("\n") + omitted + hint, spillPath };
}

function cutToBytes(text: string, max: number): string {
  const buf = Buffer.from(text);
  // toString drops a multi-byte character cut in half as U+FFFD; strip it.
  return buf
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
}
