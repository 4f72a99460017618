import type { GitFileStatus } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { groupChanges } from "./change-groups";

const file = (path: string, index: GitFileStatus["index"], worktree: GitFileStatus["worktree"]) =>
  ({ path, kind: "changed", index, worktree }) as GitFileStatus;

describe("the panel's groups of changed files", () => {
  it("puts a file staged and changed again under both Staged and Changes", () => {
    const groups = groupChanges([file("a.ts", "M", "M"), file("b.ts", ".", "M"), file("c.ts", "A", ".")]);
    expect(groups.staged.map((f) => f.path)).toEqual(["a.ts", "c.ts"]);
    expect(groups.changes.map((f) => f.path)).toEqual(["a.ts", "b.ts"]);
  });

  it("lists untracked files under Changes and unmerged ones only under Conflicts", () => {
    const groups = groupChanges([
      { path: "new.txt", kind: "untracked", index: "?", worktree: "?" },
      { path: "both.txt", kind: "unmerged", index: "U", worktree: "U" },
    ]);
    expect(groups).toEqual({
      staged: [],
      changes: [expect.objectContaining({ path: "new.txt" })],
      conflicts: [expect.objectContaining({ path: "both.txt" })],
    });
  });
});
