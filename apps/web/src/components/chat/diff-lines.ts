/** How a line of a unified diff is shown. */
export type DiffLineKind = "file" | "hunk" | "add" | "delete" | "context" | "meta";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/** Classifies each line of a unified diff (`---`/`+++` headers before `-`/`+`, which they also start with). */
export function classifyDiff(diff: string): DiffLine[] {
  const lines = diff.endsWith("\n") ? diff.slice(0, -1).split("\n") : diff.split("\n");
  return lines.map((text) => ({ kind: kindOf(text), text }));
}

function kindOf(line: string): DiffLineKind {
  if (line.startsWith("--- ") || line.startsWith("+++ ") || line.startsWith("diff --git")) return "file";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "delete";
  if (line.startsWith(" ") || line === "") return "context";
  // `\ No newline at end of file`, `index ...`, `new file mode ...`
  return "meta";
}
