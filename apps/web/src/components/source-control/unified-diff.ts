/** One hunk of a file's diff: what it shows and the patch that stages (or unstages) it alone. */
export interface DiffHunk {
  /** The `@@ -a,b +c,d @@ …` line. */
  header: string;
  /** First line of the hunk in the old and the new text (1-based). */
  oldStart: number;
  newStart: number;
  /** The hunk's lines as they were and as they are, context included. */
  oldText: string;
  newText: string;
  /** The file's header and this hunk only: `git apply --cached` takes it as it is. */
  patch: string;
}

export interface FileDiff {
  hunks: DiffHunk[];
  /** git says the file is binary: there is nothing to show line by line. */
  binary: boolean;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Reads the unified diff git answers for one file (`git diff -- path`) into its hunks. A hunk
 * keeps its own line numbers, which stay right when it is applied without the others: they count
 * from the text it is applied to (the index), not from the other hunks.
 */
export function parseFileDiff(patch: string): FileDiff {
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const firstHunk = lines.findIndex((line) => HUNK_HEADER.test(line));
  const headerLines = firstHunk === -1 ? lines : lines.slice(0, firstHunk);
  const binary = headerLines.some((line) => line.startsWith("Binary files ") || line === "GIT binary patch");
  if (firstHunk === -1) return { hunks: [], binary };
  const fileHeader = headerLines.join("\n");
  const hunks: DiffHunk[] = [];
  let current: { header: string; oldStart: number; newStart: number; body: string[] } | null = null;
  const finish = () => {
    if (!current) return;
    const { body } = current;
    const side = (drop: string) =>
      body
        .filter((line) => line[0] !== drop && line[0] !== "\\")
        .map((line) => line.slice(1))
        .join("\n");
    hunks.push({
      header: current.header,
      oldStart: current.oldStart,
      newStart: current.newStart,
      oldText: side("+"),
      newText: side("-"),
      patch: `${fileHeader}\n${current.header}\n${body.map((line) => `${line}\n`).join("")}`,
    });
  };
  for (const line of lines.slice(firstHunk)) {
    const start = HUNK_HEADER.exec(line);
    if (start) {
      finish();
      current = { header: line, oldStart: Number(start[1]), newStart: Number(start[2]), body: [] };
    } else current?.body.push(line);
  }
  finish();
  return { hunks, binary };
}
