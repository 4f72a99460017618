// Reading indentation: how wide a line's leading white space is and what one level of it is.

/** Columns a tab counts for when widths of tab- and space-indented lines are compared. */
export const TAB_COLUMNS = 4;

export function leadingWhitespace(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

export function columns(indent: string): number {
  let width = 0;
  for (const char of indent) width += char === "\t" ? TAB_COLUMNS : 1;
  return width;
}

export function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The indentation structure of a block: for each line, its depth in levels below the block's
 * shallowest line (null for blank lines), whatever the base and the unit (2 spaces, 4, a tab).
 */
export function indentLevels(lines: readonly string[]): (number | null)[] {
  const widths = lines.map((line) => (line.trim() === "" ? null : columns(leadingWhitespace(line))));
  const present = widths.filter((w): w is number => w !== null);
  const base = Math.min(...present);
  const unit = present.reduce((g, w) => gcd(g, w - base), 0) || 1;
  return widths.map((w) => (w === null ? null : (w - base) / unit));
}
