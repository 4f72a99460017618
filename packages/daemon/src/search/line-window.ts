import { type LineMatch, MAX_MATCH_LINE_CHARS } from "@coder/protocol";

/** Context shown before the first match when a long line is cut to a window. */
const CONTEXT_BEFORE = 80;
const MAX_RANGES = 50;

/**
 * A matching line as the browser gets it: ripgrep's byte offsets turned into character offsets, and
 * a long line (minified code) cut to a window around its first match, marked with "…".
 */
export function lineMatchOf(
  lineNumber: number,
  rawLine: string,
  byteRanges: readonly { start: number; end: number }[],
): LineMatch {
  const line = rawLine.replace(/\r?\n$/, "");
  const ranges = charRanges(Buffer.from(line, "utf8"), byteRanges.slice(0, MAX_RANGES));
  const first = ranges[0]?.start ?? 0;
  if (line.length <= MAX_MATCH_LINE_CHARS) return { line: lineNumber, column: first + 1, text: line, ranges };

  const from = Math.max(0, Math.min(first - CONTEXT_BEFORE, line.length - MAX_MATCH_LINE_CHARS));
  const to = Math.min(line.length, from + MAX_MATCH_LINE_CHARS);
  const lead = from > 0 ? "…" : "";
  const text = `${lead}${line.slice(from, to)}${to < line.length ? "…" : ""}`;
  const shift = lead.length - from;
  const shown = ranges
    .filter((r) => r.end > from && r.start < to)
    .map((r) => ({ start: Math.max(r.start, from) + shift, end: Math.min(r.end, to) + shift }));
  return { line: lineNumber, column: first + 1, text, ranges: shown };
}

/** Byte offsets (ascending, as ripgrep reports them) to character offsets, in one pass over the line. */
function charRanges(bytes: Buffer, ranges: readonly { start: number; end: number }[]) {
  let byte = 0;
  let chars = 0;
  const charAt = (target: number) => {
    const to = Math.max(byte, Math.min(target, bytes.length));
    chars += bytes.toString("utf8", byte, to).length;
    byte = to;
    return chars;
  };
  return ranges.map((r) => ({ start: charAt(r.start), end: charAt(r.end) }));
}
