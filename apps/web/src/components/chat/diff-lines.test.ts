import { describe, expect, it } from "vitest";
import { classifyDiff } from "./diff-lines";

describe("diff line classification", () => {
  it("tells file headers from removed and added lines that start with the same signs", () => {
    const diff = [
      "--- a/settings.py",
      "+++ b/settings.py",
      "@@ -1,2 +1,2 @@",
      " import os",
      "-DEBUG = True",
      "+DEBUG = False",
      "---- a line of dashes removed",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    expect(classifyDiff(diff).map((l) => l.kind)).toEqual([
      "file",
      "file",
      "hunk",
      "context",
      "delete",
      "add",
      "delete",
      "meta",
    ]);
  });

  it("keeps an empty context line inside a hunk", () => {
    expect(classifyDiff("@@ -1,3 +1,3 @@\n a\n\n-b\n+c").map((l) => l.kind)).toEqual([
      "hunk",
      "context",
      "context",
      "delete",
      "add",
    ]);
  });
});
