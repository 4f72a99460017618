/**
 * The conflict blocks git wrote into a file, `<<<<<<<` … (`|||||||` base …) `=======` …
 * `>>>>>>>`, with each side's lines, so that one block can be resolved to one side.
 */
export interface ConflictBlock {
  /** Offsets in the text: the first marker's line start, and the end of the last marker's line. */
  from: number;
  to: number;
  ours: string;
  theirs: string;
}

const OURS = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const SPLIT = /^={7}$/;
const THEIRS = /^>{7}(?: |$)/;

/** Every well-formed block, in order; a block without its closing marker is not one. */
export function conflictBlocks(text: string): ConflictBlock[] {
  const blocks: ConflictBlock[] = [];
  let open: { from: number; section: "ours" | "base" | "theirs"; ours: string; theirs: string } | null = null;
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    const next = newline === -1 ? text.length : newline + 1;
    const line = text.slice(at, next);
    const bare = line.replace(/\r?\n$/, "");
    if (OURS.test(bare)) open = { from: at, section: "ours", ours: "", theirs: "" };
    else if (open && BASE.test(bare) && open.section === "ours") open.section = "base";
    else if (open && SPLIT.test(bare) && open.section !== "theirs") open.section = "theirs";
    else if (open && THEIRS.test(bare) && open.section === "theirs") {
      blocks.push({ from: open.from, to: next, ours: open.ours, theirs: open.theirs });
      open = null;
    } else if (open?.section === "ours") open.ours += line;
    else if (open?.section === "theirs") open.theirs += line;
    at = next;
  }
  return blocks;
}
