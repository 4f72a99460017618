import type { FileMatches, LineMatch, SearchEvent } from "@coder/protocol";

/** What the search panel shows: the matches so far, grouped by file in the order found. */
export interface SearchResults {
  status: "idle" | "searching" | "done" | "failed";
  files: readonly FileMatches[];
  /** Occurrences (a line with two matches counts twice), as a person counts them. */
  matchCount: number;
  truncated: boolean;
  error?: string;
}

export const noResults: SearchResults = { status: "idle", files: [], matchCount: 0, truncated: false };
export const searching: SearchResults = { ...noResults, status: "searching" };

/**
 * Adds one event of `files.search`. A file's matches may come in more than one batch: they join
 * its group, which keeps its place.
 */
export function addSearchEvent(results: SearchResults, event: SearchEvent): SearchResults {
  if (event.type === "done") {
    return {
      ...results,
      status: event.error ? "failed" : "done",
      truncated: event.truncated,
      ...(event.error ? { error: event.error } : {}),
    };
  }
  const files = [...results.files];
  const at = new Map(files.map((file, i) => [file.path, i]));
  let added = 0;
  for (const batch of event.files) {
    added += occurrences(batch);
    const i = at.get(batch.path);
    const existing = i === undefined ? undefined : files[i];
    if (i !== undefined && existing)
      files[i] = { path: batch.path, matches: [...existing.matches, ...batch.matches] };
    else {
      at.set(batch.path, files.length);
      files.push(batch);
    }
  }
  return { ...results, files, matchCount: results.matchCount + added };
}

/** The results without one file (dismissed from a replace). */
export function withoutFile(results: SearchResults, path: string): SearchResults {
  const file = results.files.find((f) => f.path === path);
  if (!file) return results;
  return {
    ...results,
    files: results.files.filter((f) => f !== file),
    matchCount: results.matchCount - occurrences(file),
  };
}

function occurrences(file: FileMatches): number {
  return file.matches.reduce((n, match) => n + Math.max(1, match.ranges.length), 0);
}

/** One line of the results list: a file's heading, or one of its matches. */
export type ResultRow =
  | { kind: "file"; path: string; count: number; collapsed: boolean }
  | { kind: "match"; path: string; match: LineMatch };

export function resultRows(results: SearchResults, collapsed: ReadonlySet<string>): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const file of results.files) {
    const isCollapsed = collapsed.has(file.path);
    rows.push({ kind: "file", path: file.path, count: file.matches.length, collapsed: isCollapsed });
    if (!isCollapsed) for (const match of file.matches) rows.push({ kind: "match", path: file.path, match });
  }
  return rows;
}
