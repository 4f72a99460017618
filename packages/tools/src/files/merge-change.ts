import { type ToolContext, ToolError } from "../framework/types";
import { numberedLines } from "./numbered-lines";
import { type MergeConflict, mergeThreeWay, splitLines } from "./three-way";

/** A stale change quotes at most this many lines of the file as it is now… */
const MAX_QUOTED_LINES = 40;
/** …and stops adding lines past this many characters. */
const MAX_QUOTED_CHARS = 8000;

/**
 * The agent turned `known` (the text the session knows the file by) into `changed`, and the file
 * holds `current` now. Returns what to write: `changed` when the file is as known, else the agent's
 * change applied to `current`, with what others changed on other lines kept. When others changed
 * the very lines the change replaces, fails with stale_file quoting those lines as they are now;
 * the session knows them from then on, so a retry copied from the quote applies.
 */
export function changeOnCurrent(
  ctx: ToolContext,
  absolute: string,
  shown: string,
  known: string,
  changed: string,
  current: string,
): string {
  if (current === known) return changed;
  const merged = mergeThreeWay(known, changed, current);
  if (merged.ok) return merged.text;
  if (merged.conflicts === null) {
    throw new ToolError(
      "stale_file",
      `${shown} changed too much since it was last read to place your change in it`,
      `read ${shown} again and apply your change to its current content`,
    );
  }
  const currentLines = splitLines(current);
  const record = ctx.session.files.get(absolute);
  if (record?.text !== undefined)
    record.text = withCurrentRegions(splitLines(known), currentLines, merged.conflicts);
  const regions = merged.conflicts.map((conflict) => quoted(currentLines, conflict));
  const where = regions.map((r) => `line ${r.start_line}`).join(", ");
  throw new ToolError(
    "stale_file",
    `${shown} changed where your change applies: since you read it, someone else changed the text at ${where}`,
    `that part of the file is now (the numbers and the tab before each line are not part of it):\n${regions
      .map((r) => numberedLines(r.text, r.start_line))
      .join("\n…\n")}\nmake your change to this text`,
    { regions },
  );
}

/** The known lines with each conflicting region as it is now (regions applied last first). */
function withCurrentRegions(known: string[], current: string[], conflicts: MergeConflict[]): string {
  const lines = [...known];
  for (const { base, current: now } of conflicts.toSorted((a, b) => b.base.from - a.base.from)) {
    lines.splice(base.from, base.to - base.from, ...current.slice(now.from, now.to));
  }
  return lines.join("");
}

/** The region as it is now, bounded; a region others emptied shows the lines around it. */
function quoted(current: string[], { current: now }: MergeConflict): { start_line: number; text: string } {
  let from = now.from;
  let to = now.to;
  if (from === to) {
    from = Math.max(0, from - 1);
    to = Math.min(current.length, to + 1);
  }
  const lines: string[] = [];
  let chars = 0;
  for (const line of current.slice(from, Math.min(to, from + MAX_QUOTED_LINES))) {
    if (chars + line.length > MAX_QUOTED_CHARS && lines.length > 0) break;
    lines.push(line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…\n` : line);
    chars += line.length;
  }
  return { start_line: from + 1, text: lines.join("").replace(/\n$/, "") };
}
