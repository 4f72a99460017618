import { type FileText, type SearchText, trimLine } from "./text-model";

export interface ClosestRegion {
  /** 1-based line of the region's first line. */
  startLine: number;
  text: string;
}

/** Lines quoted at most, however long old_string is. */
const MAX_QUOTED_LINES = 40;
/** Lines shorter than this (`}`, `end`) say nothing about where old_string was meant to be. */
const MIN_TELLING_LENGTH = 4;

/**
 * The part of the file that looks most like old_string, for a not-found error, so the model can
 * copy the real text. Each line of old_string that occurs in the file (ignoring indentation) votes
 * for where old_string would start; without any such line, the file line most like old_string's
 * first telling line decides. Undefined when nothing is alike enough to be worth quoting.
 */
export function closestRegion(file: FileText, search: SearchText): ClosestRegion | undefined {
  const want = search.normalized(trimLine);
  const votes = new Map<number, number>();
  want.forEach((line, k) => {
    if (line.length < MIN_TELLING_LENGTH) return;
    const hits = file.linesWhere(trimLine, line);
    if (hits.length > 20) return;
    for (const at of hits) votes.set(at - k, (votes.get(at - k) ?? 0) + 1);
  });
  let start: number | undefined;
  let most = 0;
  for (const [candidate, count] of votes) {
    if (count > most) [start, most] = [candidate, count];
  }
  start ??= byLikeness(file, want);
  if (start === undefined) return undefined;
  const first = Math.max(0, start);
  const last = Math.min(file.lines.length, start + Math.min(want.length, MAX_QUOTED_LINES));
  return { startLine: first + 1, text: file.lines.slice(first, Math.max(last, first + 1)).join("\n") };
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
