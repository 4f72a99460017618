import type { GitFileStatus } from "@coder/protocol";

export interface ChangeGroups {
  staged: GitFileStatus[];
  /** Changed in the work tree and not staged, untracked files included. */
  changes: GitFileStatus[];
  conflicts: GitFileStatus[];
}

/** Files of `git status` as the panel groups them; a file staged and then changed again is in both. */
export function groupChanges(files: readonly GitFileStatus[]): ChangeGroups {
  const groups: ChangeGroups = { staged: [], changes: [], conflicts: [] };
  for (const file of files) {
    if (file.kind === "unmerged") {
      groups.conflicts.push(file);
      continue;
    }
    if (file.index !== "." && file.index !== "?") groups.staged.push(file);
    if (file.worktree !== ".") groups.changes.push(file);
  }
  return groups;
}

const LETTER_WORDS: Record<string, string> = {
  M: "modified",
  T: "type changed",
  A: "added",
  D: "deleted",
  R: "renamed",
  C: "copied",
  U: "conflicted",
  "?": "untracked",
};

/** The letter shown beside a file (U for untracked, as editors show it) and its meaning in words. */
export function changeLetter(letter: GitFileStatus["index"]): { letter: string; words: string } {
  return { letter: letter === "?" ? "U" : letter, words: LETTER_WORDS[letter] ?? "unchanged" };
}
