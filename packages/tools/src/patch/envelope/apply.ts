import { ToolError } from "../../framework/types";
import { fromLines, toLines } from "../lines";
import { locateForward, matchesExactlyAt } from "../seek";
import { applyPlacements, oldSide, type Placement } from "../splice";
import type { Chunk } from "./parse";

/**
 * Applies an Update File's chunks to LF text. Chunks come in file order: each is looked for after
 * the previous one (after its `@@` context line when it has one); an End of File chunk must end
 * the file. A chunk that cannot be placed throws ToolError(conflict) naming `display` and the chunk.
 */
export function applyChunks(text: string, chunks: readonly Chunk[], display: string): string {
  const file = toLines(text);
  const placements: Placement[] = [];
  let from = 0;
  chunks.forEach((chunk, index) => {
    const where = `chunk ${index + 1} of ${display}`;
    if (chunk.context !== undefined) {
      const at = locateForward(file.lines, [chunk.context], from);
      if (at === undefined) {
        throw new ToolError(
          "conflict",
          `${where}: its context line ${JSON.stringify(chunk.context)} is not in the file${from > 0 ? " after the previous chunk" : ""}`,
          "read the file again and use a line that is there",
        );
      }
      from = at + 1;
    }
    const old = oldSide(chunk.lines);
    let at: number | undefined;
    if (old.length === 0) at = chunk.context !== undefined && !chunk.endOfFile ? from : file.lines.length;
    else if (chunk.endOfFile) {
      const end = file.lines.length - old.length;
      at = end >= from && matchesExactlyAt(file.lines, old, end) ? end : undefined;
    } else at = locateForward(file.lines, old, from);
    if (at === undefined) {
      const first = old.find((line) => line.trim() !== "") ?? old[0] ?? "";
      throw new ToolError(
        "conflict",
        `${where} does not apply: the lines it keeps and removes (starting ${JSON.stringify(first)}) are not in the file${chunk.endOfFile ? " at its end" : from > 0 ? " after the previous chunk" : ""}`,
        "read the file again and rebuild the chunk from its current text",
      );
    }
    placements.push({ at, lines: chunk.lines });
    from = at + old.length;
  });
  const lines = applyPlacements(file.lines, placements);
  // An updated file ends with a line break, unless it had none and its end was left alone.
  const endTouched = placements.some((p) => p.at + oldSide(p.lines).length === file.lines.length);
  return fromLines({ lines, finalNewline: file.finalNewline || endTouched || file.lines.length === 0 });
}
