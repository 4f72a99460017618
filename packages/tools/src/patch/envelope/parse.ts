import { toLf } from "../../edit/line-endings";
import { type DiffLine, failure, type Outcome } from "../types";

export interface Chunk {
  /** The `@@ <line>` header: a line the chunk comes after (narrows where it applies). */
  context?: string;
  lines: DiffLine[];
  /** `*** End of File`: the chunk's old lines end the file. */
  endOfFile: boolean;
}

export type EnvelopeOperation =
  | { kind: "add"; path: string; lines: string[] }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: Chunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";

/**
 * Parses the `*** Begin Patch` … `*** End Patch` envelope: Add File (every line `+`), Delete File,
 * Update File with an optional Move to and `@@` chunks of context (" "), removed ("-") and added
 * ("+") lines, `*** End of File`. A shell heredoc wrapper (`apply_patch <<'EOF'` … `EOF`) and
 * blank lines around the envelope are tolerated; a missing End Patch is not (a cut-off patch).
 */
export function parseEnvelope(patch: string): Outcome<EnvelopeOperation[]> {
  const lines = unwrap(toLf(patch).split("\n"));
  if (lines[0]?.trim() !== BEGIN) return failure("invalid_args", `the patch must start with "${BEGIN}"`);
  if (lines[lines.length - 1]?.trim() !== END) {
    return failure("invalid_args", `the patch must end with "${END}" (was it cut off?)`);
  }
  const operations: EnvelopeOperation[] = [];
  let i = 1;
  const last = lines.length - 1;
  while (i < last) {
    const line = lines[i] as string;
    const where = `line ${i + 1}`;
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      const content: string[] = [];
      for (i++; i < last && isAddedLine(lines, i); i++) content.push((lines[i] as string).slice(1));
      operations.push({ kind: "add", path, lines: content });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: "delete", path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const parsed = readUpdate(lines, i, last);
      if (!parsed.ok) return parsed;
      operations.push(parsed.value.operation);
      i = parsed.value.next;
    } else if (line.trim() === "") {
      i++;
    } else {
      return failure(
        "invalid_args",
        `${where}: expected "*** Add File:", "*** Update File:" or "*** Delete File:", got ${JSON.stringify(line)}`,
      );
    }
  }
  if (operations.length === 0) return failure("invalid_args", "the patch has no file operations");
  const unnamed = operations.find((op) => op.path === "" || (op.kind === "update" && op.moveTo === ""));
  if (unnamed) return failure("invalid_args", `a "*** ${unnamed.kind} File:" line names no path`);
  return { ok: true, value: operations };
}

function readUpdate(
  lines: string[],
  start: number,
  last: number,
): Outcome<{ operation: EnvelopeOperation; next: number }> {
  const path = (lines[start] as string).slice(UPDATE.length).trim();
  const operation: EnvelopeOperation & { kind: "update" } = { kind: "update", path, chunks: [] };
  let i = start + 1;
  if ((lines[i] ?? "").startsWith(MOVE)) {
    operation.moveTo = (lines[i] as string).slice(MOVE.length).trim();
    i++;
  }
  let chunk: Chunk | undefined;
  // Bare blank lines are empty context lines, except at a chunk's end, where they separate sections.
  let blanks = 0;
  const close = () => {
    chunk?.lines.splice(chunk.lines.length - blanks, blanks);
    blanks = 0;
  };
  for (; i < last; i++) {
    const line = lines[i] as string;
    if (line.startsWith("*** ") && line.trim() !== END_OF_FILE) break;
    if (line.trim() === END_OF_FILE) {
      if (!chunk) return failure("invalid_args", `line ${i + 1}: "${END_OF_FILE}" before any change lines`);
      close();
      chunk.endOfFile = true;
      chunk = undefined;
    } else if (line.startsWith("@@")) {
      close();
      const context = line.slice(2).trim();
      chunk = context === "" ? { lines: [], endOfFile: false } : { context, lines: [], endOfFile: false };
      operation.chunks.push(chunk);
    } else {
      const op = line === "" ? " " : line[0];
      if (op !== " " && op !== "-" && op !== "+") {
        return failure(
          "invalid_args",
          `line ${i + 1}: in "*** Update File: ${path}", lines start with " ", "-" or "+"; got ${JSON.stringify(line)}`,
        );
      }
      if (!chunk) {
        // The first chunk may leave out its @@ line.
        chunk = { lines: [], endOfFile: false };
        operation.chunks.push(chunk);
      }
      chunk.lines.push({ op, text: line.slice(1) });
      blanks = line === "" ? blanks + 1 : 0;
    }
  }
  close();
  const idle = operation.chunks.findIndex((c) => !c.lines.some((l) => l.op !== " "));
  if (idle !== -1)
    return failure("invalid_args", `chunk ${idle + 1} of ${path} changes nothing (no + or - lines)`);
  if (operation.chunks.length === 0 && operation.moveTo === undefined) {
    return failure("invalid_args", `"*** Update File: ${path}" has no changes`);
  }
  return { ok: true, value: { operation, next: i } };
}

/** A `+` line of an Add File; a blank line counts when more `+` lines follow (its `+` was lost). */
function isAddedLine(lines: string[], i: number): boolean {
  let k = i;
  while ((lines[k] ?? "x") === "") k++;
  return (lines[k] ?? "").startsWith("+");
}

/** Drops blank lines around the envelope and a heredoc wrapper a model copied from a shell call. */
function unwrap(lines: string[]): string[] {
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && (lines[first] as string).trim() === "") first++;
  while (last >= first && (lines[last] as string).trim() === "") last--;
  if (/<<\s*['"]?\w+['"]?\s*$/.test(lines[first] ?? "") && /^\w+$/.test((lines[last] ?? "").trim())) {
    first++;
    last--;
  }
  return lines.slice(first, last + 1);
}
