import { ToolError } from "../../framework/types";
import { fromLines, type Lines, toLines } from "../lines";
import { locateNear } from "../seek";
import { applyPlacements, oldSide, type Placement } from "../splice";
import type { Hunk } from "./parse";

/** How far from the stated line a hunk is looked for before the whole file is searched. */
const NEAR_LINES = 200;

/**
 * Applies a file's hunks to its LF text. Each hunk is looked for at its stated line (shifted by
 * how far earlier hunks moved), then nearby, then anywhere after the previous hunk, where it must
 * be unique. A hunk that cannot be placed throws ToolError(conflict) naming `display` and the hunk.
 */
export function applyHunks(text: string, hunks: readonly Hunk[], display: string): string {
  const file = toLines(text);
  const placements: Placement[] = [];
  let from = 0;
  let shift = 0;
  let finalNewline = file.finalNewline;
  hunks.forEach((hunk, index) => {
    const old = oldSide(hunk.lines);
    const stated = hunk.oldStart === undefined ? undefined : statedIndex(hunk, old.length) + shift;
    const at =
      old.length === 0
        ? insertionPoint(stated, from, file)
        : place(file.lines, old, stated, from, display, index);
    if (stated !== undefined) shift = at - (stated - shift);
    placements.push({ at, lines: hunk.lines });
    from = at + old.length;
    if (from === file.lines.length) {
      if (hunk.newNoNewline) finalNewline = false;
      else if (hunk.oldNoNewline || old.length === 0) finalNewline = true;
    }
  });
  const lines = applyPlacements(file.lines, placements);
  return fromLines({ lines, finalNewline: lines.length > 0 && finalNewline });
}

/** 0-based first old line as stated; for a pure insertion, `-N,0` means "after line N". */
function statedIndex(hunk: Hunk, oldLength: number): number {
  const start = hunk.oldStart ?? 1;
  return oldLength === 0 ? start : Math.max(0, start - 1);
}

function insertionPoint(stated: number | undefined, from: number, file: Lines): number {
  return Math.min(Math.max(stated ?? file.lines.length, from), file.lines.length);
}

function place(
  lines: string[],
  old: string[],
  stated: number | undefined,
  from: number,
  display: string,
  index: number,
): number {
  const found = locateNear(lines, old, stated, from, NEAR_LINES);
  if (found && "at" in found) return found.at;
  const where = `hunk ${index + 1} of ${display}`;
  const first = old.find((line) => line.trim() !== "") ?? old[0] ?? "";
  if (found) {
    throw new ToolError(
      "conflict",
      `${where} matches ${found.ambiguous.length} places (lines ${found.ambiguous.map((at) => at + 1).join(", ")}) and its line numbers point to none of them`,
      "give the hunk correct line numbers or more context lines",
    );
  }
  throw new ToolError(
    "conflict",
    `${where} does not apply: the lines it keeps and removes (starting ${JSON.stringify(first)}) are not in the file${stated === undefined ? "" : ` near line ${stated + 1}`}`,
    "read the file again and rebuild the hunk from its current text",
  );
}
