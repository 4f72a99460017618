import fuzzysort, { type Snapshot } from "fuzzysort";

/** What was typed into quick open: a name to match, and where to go in the file (`name:40:5`). */
export interface FileQuery {
  text: string;
  line?: number;
  column?: number;
}

export function parseFileQuery(raw: string): FileQuery {
  const found = /^(.*?):(\d+)(?::(\d+))?\s*$/.exec(raw.trim());
  if (!found) return { text: raw.trim() };
  const [, text = "", line, column] = found;
  return { text: text.trim(), line: Number(line), ...(column ? { column: Number(column) } : {}) };
}

export interface FileHit {
  path: string;
  /** Positions of the matched characters in `path`, to mark them. */
  indexes: readonly number[];
}

/** Matches below this score are noise (a letter here and there across a long path). */
const THRESHOLD = 0.3;

/**
 * The workspace's files, ready for fuzzy matching as the person types. The snapshot is built once
 * per list; fuzzysort prepares each path on the first search, so the caller may `warm()` it when
 * idle to keep that cost off the first keystroke.
 */
export class FileIndex {
  private readonly snapshot: Snapshot;

  constructor(readonly files: readonly string[]) {
    this.snapshot = fuzzysort.snapshot(files);
  }

  warm(): void {
    fuzzysort.go("\u0001", this.snapshot, { limit: 1 });
  }

  search(text: string, limit: number): FileHit[] {
    if (text === "") return this.files.slice(0, limit).map((path) => ({ path, indexes: [] }));
    return fuzzysort
      .go(text, this.snapshot, { limit, threshold: THRESHOLD })
      .map((result) => ({ path: result.target, indexes: result.indexes }));
  }
}
