import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./diff";

describe("unifiedDiff", () => {
  it("gives a unified diff with line counts", () => {
    expect(unifiedDiff("a.txt", "one\ntwo\n", "one\n2\nthree\n")).toEqual({
      diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n one\n-two\n+2\n+three",
      additions: 2,
      deletions: 1,
    });
  });

  it("diffs a new file against /dev/null", () => {
    expect(unifiedDiff("n.txt", "", "x\n", true).diff).toBe(
      "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+x",
    );
  });

  it("is empty when nothing changed", () => {
    expect(unifiedDiff("a.txt", "same\n", "same\n")).toEqual({ diff: "", additions: 0, deletions: 0 });
  });

  it("shows the whole file replaced when the diff would take too long", () => {
    // A deadline already past stops the diff before its first step.
    expect(unifiedDiff("a.txt", "keep\nold\n", "keep\nnew\n", false, -1)).toEqual({
      diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-keep\n-old\n+keep\n+new",
      additions: 2,
      deletions: 2,
    });
  });
});
