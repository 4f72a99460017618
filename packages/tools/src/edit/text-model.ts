/** A character range of the file, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** A per-line normalisation; used as a cache key, so pass the same function object each time. */
export type LineNormalizer = (line: string) => string;

export const trimLine: LineNormalizer = (line) => line.trim();

export const collapseWhitespace: LineNormalizer = (line) => {
  const trimmed = line.trim();
  // Most lines have single spaces only; skip the rewrite for them.
  return /\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
};

/** The file being edited (LF text), with its lines and lazily built per-normalisation indexes. */
export class FileText {
  readonly lines: string[];
  readonly lineStarts: number[];
  private readonly views = new Map<LineNormalizer, { lines: string[]; index: Map<string, number[]> }>();

  constructor(readonly text: string) {
    this.lines = text.split("\n");
    this.lineStarts = new Array<number>(this.lines.length);
    let at = 0;
    this.lines.forEach((line, i) => {
      this.lineStarts[i] = at;
      at += line.length + 1;
    });
  }

  /** The file's lines passed through `normalize`. */
  normalized(normalize: LineNormalizer): string[] {
    return this.view(normalize).lines;
  }

  /** The indexes of the lines whose normalised form is `key`, ascending. */
  linesWhere(normalize: LineNormalizer, key: string): readonly number[] {
    return this.view(normalize).index.get(key) ?? [];
  }

  /** The 0-based line that holds character `offset`. */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Whole lines `first..last`, plus the line break after them when the old_string ended with one. */
  lineSpan(first: number, last: number, withNewline: boolean): Span {
    const start = this.lineStarts[first] ?? 0;
    let end = (this.lineStarts[last] ?? 0) + (this.lines[last]?.length ?? 0);
    if (withNewline && end < this.text.length) end += 1;
    return { start, end };
  }

  private view(normalize: LineNormalizer) {
    let view = this.views.get(normalize);
    if (!view) {
      const lines = this.lines.map(normalize);
      const index = new Map<string, number[]>();
      lines.forEach((line, i) => {
        const list = index.get(line);
        if (list) list.push(i);
        else index.set(line, [i]);
      });
      view = { lines, index };
      this.views.set(normalize, view);
    }
    return view;
  }
}

/** The old_string (LF), split into lines; a final line break is remembered rather than kept as a line. */
export class SearchText {
  readonly lines: string[];
  readonly endsWithNewline: boolean;
  /** Only white space: loose strategies would match almost anywhere, so only an exact match counts. */
  readonly isBlank: boolean;
  private readonly views = new Map<LineNormalizer, string[]>();

  constructor(readonly text: string) {
    this.endsWithNewline = text.endsWith("\n") && text.length > 1;
    this.lines = (this.endsWithNewline ? text.slice(0, -1) : text).split("\n");
    this.isBlank = text.trim() === "";
  }

  normalized(normalize: LineNormalizer): string[] {
    let lines = this.views.get(normalize);
    if (!lines) {
      lines = this.lines.map(normalize);
      this.views.set(normalize, lines);
    }
    return lines;
  }
}

/** Every start of `needle` in `text`, left to right, without overlaps. */
export function occurrences(text: string, needle: string): Span[] {
  const spans: Span[] = [];
  if (needle === "") return spans;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    spans.push({ start: at, end: at + needle.length });
  }
  return spans;
}

/** The first lines `i` where the `normalize`d file lines equal the old_string's, line for line. */
export function matchingWindows(file: FileText, search: SearchText, normalize: LineNormalizer): number[] {
  const want = search.normalized(normalize);
  const have = file.normalized(normalize);
  const n = want.length;
  const starts: number[] = [];
  for (const i of file.linesWhere(normalize, want[0] ?? "")) {
    if (i + n > have.length) break;
    let k = 1;
    while (k < n && have[i + k] === want[k]) k++;
    if (k === n) starts.push(i);
  }
  return starts;
}
