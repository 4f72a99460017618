// Finding where a hunk's old lines are in a file. Each pass compares lines more loosely than the
// one before (models drop trailing spaces, re-indent context, type straight quotes for curly ones);
// a looser pass is only tried when the stricter ones found nothing.

type LineEquals = (fileLine: string, patchLine: string) => boolean;

const PUNCTUATION: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2026": "...",
  "\u00A0": " ",
};

function plainPunctuation(line: string): string {
  return line
    .trim()
    .replace(/[\u2018\u2019\u201C\u201D\u2013\u2014\u2026\u00A0]/g, (c) => PUNCTUATION[c] ?? c);
}

const PASSES: readonly LineEquals[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => plainPunctuation(a) === plainPunctuation(b),
];

function matchesAt(
  lines: readonly string[],
  at: number,
  pattern: readonly string[],
  equals: LineEquals,
): boolean {
  if (at < 0 || at + pattern.length > lines.length) return false;
  for (let k = 0; k < pattern.length; k++) {
    if (!equals(lines[at + k] ?? "", pattern[k] ?? "")) return false;
  }
  return true;
}

function allMatches(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
  equals: LineEquals,
): number[] {
  const found: number[] = [];
  for (let at = Math.max(0, from); at + pattern.length <= lines.length; at++) {
    if (matchesAt(lines, at, pattern, equals)) found.push(at);
  }
  return found;
}

type Located = { at: number } | { ambiguous: number[] } | undefined;

/**
 * For a unified-diff hunk: the match nearest the stated line within `near` lines of it; failing
 * that, the only match anywhere at or after `from`. Several far matches are ambiguous.
 */
export function locateNear(
  lines: readonly string[],
  pattern: readonly string[],
  expected: number | undefined,
  from: number,
  near: number,
): Located {
  for (const equals of PASSES) {
    if (expected !== undefined) {
      for (let distance = 0; distance <= near; distance++) {
        for (const at of distance === 0 ? [expected] : [expected - distance, expected + distance]) {
          if (at >= from && matchesAt(lines, at, pattern, equals)) return { at };
        }
      }
    }
    const found = allMatches(lines, pattern, from, equals);
    if (found.length === 1) return { at: found[0] as number };
    if (found.length > 1) return { ambiguous: found };
  }
  return undefined;
}

/** For an envelope chunk: the first match at or after `from` (chunks come in file order). */
export function locateForward(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
): number | undefined {
  for (const equals of PASSES) {
    for (let at = Math.max(0, from); at + pattern.length <= lines.length; at++) {
      if (matchesAt(lines, at, pattern, equals)) return at;
    }
  }
  return undefined;
}

/** Whether `pattern` matches at exactly `at` under any pass (an end-of-file chunk). */
export function matchesExactlyAt(lines: readonly string[], pattern: readonly string[], at: number): boolean {
  return PASSES.some((equals) => matchesAt(lines, at, pattern, equals));
}
