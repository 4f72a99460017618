import type { TerminalAttached } from "./terminal-connection";

/** How a shared terminal's window sits in this page's panel. */
export interface SharedFit {
  /** The window's size when it is smaller than the panel (the rest of the panel is unused). */
  grid: { cols: number; rows: number } | null;
  /** Whose windows it is sized for: the people with input whose window is that narrow or short. */
  sizedFor: string[];
  /** Everyone attached, once each, people with input first. */
  names: string[];
  /** People attached beyond those named. */
  more: number;
}

/** What `attached` means for a panel of `cols` × `rows` cells. */
export function sharedFit(attached: TerminalAttached | null, cols: number, rows: number): SharedFit {
  if (!attached) return { grid: null, sizedFor: [], names: [], more: 0 };
  const names = [...new Set(attached.people.map((p) => p.name))];
  const size = attached.size;
  if (!size || (size.cols >= cols && size.rows >= rows)) {
    return { grid: null, sizedFor: [], names, more: attached.more };
  }
  const narrower = size.cols < cols;
  const shorter = size.rows < rows;
  const sizedFor = attached.people
    .filter((p) => p.input && ((narrower && p.cols === size.cols) || (shorter && p.rows === size.rows)))
    .map((p) => p.name);
  return { grid: size, sizedFor: [...new Set(sizedFor)], names, more: attached.more };
}

/** "Bea's", "Bea's and Ed's", "Bea's, Ed's and Kim's". */
export function possessiveList(names: readonly string[]): string {
  const owned = names.map((name) => `${name}'s`);
  return owned.length <= 1 ? (owned[0] ?? "") : `${owned.slice(0, -1).join(", ")} and ${owned.at(-1)}`;
}
