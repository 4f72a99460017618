import {
  FILE_HEADERS_ONLY,
  formatPatch,
  type StructuredPatch,
  type StructuredPatchHunk,
  structuredPatch,
} from "diff";

export interface TextDiff {
  /** Unified diff text (`---`/`+++`/`@@`), empty when nothing changed. */
  diff: string;
  additions: number;
  deletions: number;
}

/** Diffs that would take longer than this are shown as a whole-file replacement instead. */
const DIFF_TIMEOUT_MS = 2000;

/**
 * A unified diff of two LF texts of the file shown as `shown` (`created`: it did not exist). A diff
 * that takes longer than `timeoutMs` to compute is given as the whole file replaced.
 */
export function unifiedDiff(
  shown: string,
  before: string,
  after: string,
  created = false,
  timeoutMs = DIFF_TIMEOUT_MS,
): TextDiff {
  if (before === after) return { diff: "", additions: 0, deletions: 0 };
  const oldName = created ? "/dev/null" : `a/${shown}`;
  const newName = `b/${shown}`;
  const patch: StructuredPatch = structuredPatch(oldName, newName, before, after, undefined, undefined, {
    context: 3,
    timeout: timeoutMs,
  }) ?? {
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [wholeFileHunk(before, after)],
  };
  let additions = 0;
  let deletions = 0;
  for (const line of patch.hunks.flatMap((h) => h.lines)) {
    if (line.startsWith("+")) additions++;
    else if (line.startsWith("-")) deletions++;
  }
  return { diff: formatPatch(patch, FILE_HEADERS_ONLY).replace(/\n$/, ""), additions, deletions };
}

function wholeFileHunk(before: string, after: string): StructuredPatchHunk {
  const lines = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
  const removed = lines(before);
  const added = lines(after);
  return {
    oldStart: 1,
    oldLines: removed.length,
    newStart: 1,
    newLines: added.length,
    lines: [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)],
  };
}
