/** Text as `cat -n` shows it: each line after its 1-based number and a tab, starting at `first`. */
export function numberedLines(text: string, first: number): string {
  return text
    .split("\n")
    .map((line, i) => `${String(first + i).padStart(6)}\t${line}`)
    .join("\n");
}
