import { columns, gcd, leadingWhitespace, TAB_COLUMNS } from "./indentation";

/**
 * Rewrites new_string's indentation to fit where a loose strategy matched: the model wrote
 * old_string (and so new_string) at the wrong depth or in the wrong unit, and `matched` is what the
 * file really has there. Each new line keeps its depth relative to old_string's shallowest line,
 * moved to the file's base indentation and unit. When old_string's indentation was already the
 * file's, new_string is returned untouched.
 */
export function reindent(oldString: string, matched: string, newString: string): string {
  const oldLines = oldString.split("\n");
  const fileLines = matched.split("\n");
  if (sameIndentation(oldLines, fileLines)) return newString;

  const model = shape(oldLines.concat(newString.split("\n")));
  const file = shape(fileLines);
  const oldBase = shape(oldLines)?.base;
  if (model === undefined || file === undefined || oldBase === undefined) return newString;
  const fileUnit = file.usesTabs ? "\t" : " ".repeat(file.unit ?? model.unit ?? 1);
  const modelUnit = model.unit ?? (model.usesTabs ? TAB_COLUMNS : fileUnit.length);

  return newString
    .split("\n")
    .map((line) => {
      if (line.trim() === "") return line;
      const depth = columns(leadingWhitespace(line)) - oldBase;
      if (depth < 0) return line;
      const levels = Math.floor(depth / modelUnit);
      const rest = depth - levels * modelUnit;
      return file.baseIndent + fileUnit.repeat(levels) + " ".repeat(rest) + line.trimStart();
    })
    .join("\n");
}

/** Old and matched lines have the same leading white space, line for line. */
function sameIndentation(oldLines: string[], fileLines: string[]): boolean {
  if (oldLines.length !== fileLines.length) return false;
  return oldLines.every((line, i) => {
    const other = fileLines[i] ?? "";
    return line.trim() === "" || other.trim() === "" || leadingWhitespace(line) === leadingWhitespace(other);
  });
}

interface Shape {
  /** Width in columns of the shallowest non-blank line, and that line's own leading white space. */
  base: number;
  baseIndent: string;
  /** Columns per level (the common divisor of the depths), unknown when all lines are level. */
  unit: number | undefined;
  usesTabs: boolean;
}

function shape(lines: string[]): Shape | undefined {
  const indents = lines.filter((line) => line.trim() !== "").map(leadingWhitespace);
  if (indents.length === 0) return undefined;
  let baseIndent = indents[0] ?? "";
  for (const indent of indents) if (columns(indent) < columns(baseIndent)) baseIndent = indent;
  const base = columns(baseIndent);
  const unit = indents.reduce((g, indent) => gcd(g, columns(indent) - base), 0);
  return { base, baseIndent, unit: unit || undefined, usesTabs: indents.some((i) => i.includes("\t")) };
}
