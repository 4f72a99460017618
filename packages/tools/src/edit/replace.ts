import { type ClosestRegion, closestRegion } from "./closest";
import { toLf } from "./line-endings";
import { tooLongSpan } from "./safety";
import { STRATEGIES, type Strategy, type StrategyName } from "./strategies";
import { FileText, SearchText, type Span } from "./text-model";

export type ReplaceResult =
  | { ok: true; content: string; replacements: number; strategy: StrategyName }
  | {
      ok: false;
      code: "not_found" | "conflict" | "invalid_args";
      message: string;
      /** On not_found: the part of the file most like old_string. */
      closest?: ClosestRegion;
      /** On conflict: the 1-based first lines of the places old_string matched. */
      lines?: number[];
    };

/**
 * Replaces old_string with new_string in `content` (LF text). The strategies are tried strictest
 * first; the first that finds exactly one place wins (with `replaceAll`, the first that finds any).
 * A strategy that finds several places makes the edit ambiguous: a later, differently strict
 * strategy may still pick one of those same places, but never a new one, and otherwise the result
 * is a conflict. old_string and new_string may use CRLF; they are compared and written as LF.
 */
export function replace(
  content: string,
  oldString: string,
  newString: string,
  replaceAll = false,
): ReplaceResult {
  const oldText = toLf(oldString);
  const newText = toLf(newString);
  if (oldText === "") {
    return invalid("old_string is empty; give the exact text to replace, or use write to create a file");
  }
  if (oldText === newText)
    return invalid("old_string and new_string are the same; the edit would change nothing");

  const file = new FileText(content);
  const search = new SearchText(oldText);
  let ambiguous: Span[] | undefined;
  for (const strategy of STRATEGIES) {
    if (strategy.name !== "exact" && search.isBlank) break;
    const spans = admissible(strategy.find(file, search), file, search);
    if (spans.length === 0) continue;
    if (ambiguous) {
      const [only] = spans;
      if (spans.length === 1 && only && ambiguous.some((s) => s.start === only.start && s.end === only.end)) {
        return apply(file, search, newText, strategy, spans);
      }
      continue;
    }
    if (replaceAll) return apply(file, search, newText, strategy, withoutOverlaps(spans));
    if (spans.length === 1) return apply(file, search, newText, strategy, spans);
    ambiguous = spans;
  }
  if (ambiguous) return conflict(file, ambiguous);
  return notFound(file, search);
}

/** Sorted, without duplicates, and without spans far longer than old_string (a safety rule). */
function admissible(spans: Span[], file: FileText, search: SearchText): Span[] {
  const limit = tooLongSpan(search.lines.length);
  const sorted = spans
    .filter((s) => file.lineAt(Math.max(s.start, s.end - 1)) - file.lineAt(s.start) + 1 < limit)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  return sorted.filter((s, i) => {
    const before = sorted[i - 1];
    return !before || before.start !== s.start || before.end !== s.end;
  });
}

function withoutOverlaps(spans: Span[]): Span[] {
  const kept: Span[] = [];
  for (const span of spans) {
    const last = kept[kept.length - 1];
    if (!last || span.start >= last.end) kept.push(span);
  }
  return kept;
}

function apply(
  file: FileText,
  search: SearchText,
  newText: string,
  strategy: Strategy,
  spans: Span[],
): ReplaceResult {
  let out = "";
  let at = 0;
  for (const span of spans) {
    const matched = file.text.slice(span.start, span.end);
    let replacement = strategy.adapt ? strategy.adapt(newText, matched, search) : newText;
    // old_string ended with a line break the matched text lacks (the file's last line): so does new_string.
    if (search.endsWithNewline && !matched.endsWith("\n") && replacement.endsWith("\n")) {
      replacement = replacement.slice(0, -1);
    }
    out += file.text.slice(at, span.start) + replacement;
    at = span.end;
  }
  out += file.text.slice(at);
  return { ok: true, content: out, replacements: spans.length, strategy: strategy.name };
}

function invalid(message: string): ReplaceResult {
  return { ok: false, code: "invalid_args", message };
}

function conflict(file: FileText, spans: Span[]): ReplaceResult {
  const lines = [...new Set(spans.map((s) => file.lineAt(s.start) + 1))];
  return {
    ok: false,
    code: "conflict",
    message: `old_string matches ${spans.length} places (lines ${lines.join(", ")}); include more surrounding lines to make it unique, or set replace_all to change every one`,
    lines,
  };
}

function notFound(file: FileText, search: SearchText): ReplaceResult {
  const closest = closestRegion(file, search);
  const message =
    "old_string was not found in the file, not even ignoring indentation, white space and escaping. " +
    (closest
      ? `The closest text, from line ${closest.startLine}, is quoted in the hint; copy it exactly (read the file again if it may have changed).`
      : "Read the file again and copy the text to replace exactly.");
  return closest
    ? { ok: false, code: "not_found", message, closest }
    : { ok: false, code: "not_found", message };
}
