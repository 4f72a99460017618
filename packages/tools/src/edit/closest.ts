import { type FileText, type SearchText, trimLine } from "./text-model";

export interface ClosestRegion {
  /** 1-based line of the region's first line. */
  startLine: number;
  text: string;
}

/** Lines quoted at most, however long old_string is. */
const MAX_QUOTED_LINES = 40;
/** A quoted line longer than this is cut (minified code), so the quote stays a few kilobytes. */
const MAX_QUOTED_LINE_CHARS = 500;
/** The quote stops adding lines past this many characters. */
const MAX_QUOTED_CHARS = 8000;
/** Lines shorter than this (`}`, `end`) say nothing about where old_string was meant to be. */
const MIN_TELLING_LENGTH = 4;
/** A line of old_string found more often than this in the file says little about where it goes. */
const MAX_HITS = 20;

/**
 * The part of the file that looks most like old_string, for a not-found error, so the model can
 * copy the real text. When old_string's first and last lines are both in the file, close enough
 * together, the quote runs from one to the other whatever lies between (the block the model had in
 * mind, with a middle that changed). Otherwise each line of old_string that occurs in the file
 * (ignoring indentation) votes for where old_string would start; without any such line, the file
 * line most like old_string's first telling line decides. Undefined when nothing is alike enough
 * to be worth quoting. The quote is bounded: at most MAX_QUOTED_LINES lines, long lines cut.
 */
export function closestRegion(file: FileText, search: SearchText): ClosestRegion | undefined {
  const want = search.normalized(trimLine);
  const block = anchoredBlock(file, want);
  if (block) return quote(file, block.first, block.last);
  const votes = new Map<number, number>();
  want.forEach((line, k) => {
    if (line.length < MIN_TELLING_LENGTH) return;
    const hits = file.linesWhere(trimLine, line);
    if (hits.length > MAX_HITS) return;
    for (const at of hits) votes.set(at - k, (votes.get(at - k) ?? 0) + 1);
  });
  let start: number | undefined;
  let most = 0;
  for (const [candidate, count] of votes) {
    if (count > most) [start, most] = [candidate, count];
  }
  start ??= byLikeness(file, want);
  if (start === undefined) return undefined;
  return quote(file, start, start + want.length - 1);
}

/**
 * The file lines from where old_string's first non-blank line is to where its last one is (both
 * trimmed), the nearest such pair of at most MAX_QUOTED_LINES lines, widened by the blank lines
 * old_string has around them. At least one of the two must be telling, so `}`…`}` finds nothing.
 */
function anchoredBlock(file: FileText, want: string[]): { first: number; last: number } | undefined {
  const head = want.findIndex((line) => line !== "");
  const tail = want.findLastIndex((line) => line !== "");
  const top = want[head];
  const bottom = want[tail];
  if (top === undefined || bottom === undefined || tail <= head) return undefined;
  if (top.length < MIN_TELLING_LENGTH && bottom.length < MIN_TELLING_LENGTH) return undefined;
  const tops = file.linesWhere(trimLine, top);
  const bottoms = file.linesWhere(trimLine, bottom);
  // Pair from a telling side: each of its hits with the nearest hit of the other line beyond it.
  const fromTop = top.length >= MIN_TELLING_LENGTH;
  const pivots = fromTop ? tops : bottoms;
  if (pivots.length > MAX_HITS) return undefined;
  let best: { first: number; last: number } | undefined;
  for (const at of pivots) {
    const other = fromTop ? bottoms.find((b) => b > at) : tops.findLast((a) => a < at);
    if (other === undefined) continue;
    const [a, b] = fromTop ? [at, other] : [other, at];
    if (b - a >= MAX_QUOTED_LINES) continue;
    if (!best || b - a < best.last - best.first) best = { first: a, last: b };
  }
  return best && { first: best.first - head, last: best.last + (want.length - 1 - tail) };
}

/** Lines `first..last` (0-based, clamped to the file and to the quote's bounds). */
function quote(file: FileText, first: number, last: number): ClosestRegion {
  const from = Math.max(0, first);
  const to = Math.min(file.lines.length - 1, last, from + MAX_QUOTED_LINES - 1);
  const lines: string[] = [];
  let chars = 0;
  for (let i = from; i <= Math.max(to, from) && chars < MAX_QUOTED_CHARS; i++) {
    const line = file.lines[i] ?? "";
    const shown =
      line.length > MAX_QUOTED_LINE_CHARS
        ? `${line.slice(0, MAX_QUOTED_LINE_CHARS)}... [line cut at ${MAX_QUOTED_LINE_CHARS} characters]`
        : line;
    lines.push(shown);
    chars += shown.length + 1;
  }
  return { startLine: from + 1, text: lines.join("\n") };
}

/**
 * Where old_string would start if its first telling line were the file line most like it, by the
 * share of letter pairs the two have in common (a cheap stand-in for edit distance over every line).
 */
function byLikeness(file: FileText, want: string[]): number | undefined {
  const k = want.findIndex((line) => line.length >= MIN_TELLING_LENGTH);
  const line = want[k];
  if (line === undefined) return undefined;
  const pairs = new Set<number>();
  for (let i = 0; i + 1 < line.length; i++) pairs.add(pairAt(line, i));
  let best: number | undefined;
  let bestScore = 0.5;
  file.normalized(trimLine).forEach((candidate, i) => {
    if (candidate.length < MIN_TELLING_LENGTH || candidate.length > line.length * 3) return;
    let shared = 0;
    for (let at = 0; at + 1 < candidate.length; at++) if (pairs.has(pairAt(candidate, at))) shared++;
    const score = (2 * shared) / (line.length - 1 + candidate.length - 1);
    if (score > bestScore) [best, bestScore] = [i - k, score];
  });
  return best;
}

function pairAt(text: string, i: number): number {
  return (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
}
