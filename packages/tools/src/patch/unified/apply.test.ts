import { describe, expect, it } from "vitest";
import { ToolError } from "../../framework/types";
import { applyHunks } from "./apply";
import { type Hunk, parseUnifiedDiff } from "./parse";

function hunksOf(body: string): Hunk[] {
  const result = parseUnifiedDiff(`--- a/f.txt\n+++ b/f.txt\n${body}`);
  if (!result.ok) throw new Error(result.error.message);
  return result.value[0]?.hunks ?? [];
}

const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

function conflictOf(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected a conflict");
}

describe("applyHunks", () => {
  it("applies a hunk at its stated line", () => {
    const out = applyHunks(
      numbered(5),
      hunksOf("@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n"),
      "f.txt",
    );
    expect(out).toBe("line 1\nline 2\nLINE 3\nline 4\nline 5\n");
  });

  it("finds a hunk whose line numbers are off, and shifts the following hunks by as much", () => {
    const hunks = hunksOf(
      "@@ -10,3 +10,3 @@\n line 30\n-line 31\n+LINE 31\n line 32\n@@ -40,3 +40,3 @@\n line 60\n-line 61\n+LINE 61\n line 62\n",
    );
    const out = applyHunks(numbered(100), hunks, "f.txt");
    expect(out).toContain("line 30\nLINE 31\nline 32\n");
    expect(out).toContain("line 60\nLINE 61\nline 62\n");
  });

  it("finds a hunk far from its stated line when it is unique in the file", () => {
    const out = applyHunks(numbered(1000), hunksOf("@@ -3,2 +3,2 @@\n line 900\n-line 901\n+x\n"), "f.txt");
    expect(out).toContain("line 900\nx\nline 902\n");
  });

  it("picks the nearest of several matches close to the stated line", () => {
    const file = "a\nb\nx\na\nb\nx\n";
    expect(applyHunks(file, hunksOf("@@ -4,2 +4,2 @@\n a\n-b\n+B\n"), "f.txt")).toBe("a\nb\nx\na\nB\nx\n");
  });

  it("refuses a hunk that is neither near its line nor unique in the file", () => {
    const file = `${numbered(500)}dup\nend\n${numbered(10)}dup\nend\n`;
    const error = conflictOf(() => applyHunks(file, hunksOf("@@ -1,2 +1,2 @@\n dup\n-end\n+END\n"), "f.txt"));
    expect(error.code).toBe("conflict");
    expect(error.message).toMatch(/hunk 1 of f\.txt matches 2 places/);
  });

  it("names the file and the hunk that does not apply", () => {
    const hunks = hunksOf(
      "@@ -1,2 +1,2 @@\n line 1\n-line 2\n+two\n@@ -4,2 +4,2 @@\n line 4\n-line five\n+five\n",
    );
    const error = conflictOf(() => applyHunks(numbered(6), hunks, "src/f.txt"));
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("hunk 2 of src/f.txt does not apply");
  });

  it("tolerates trailing spaces and indentation in context lines and keeps the file's version of them", () => {
    const file = "def f():   \n    return 1\n";
    const out = applyHunks(
      file,
      hunksOf("@@ -1,2 +1,2 @@\n def f():\n-  return 1\n+    return 2\n"),
      "f.txt",
    );
    expect(out).toBe("def f():   \n    return 2\n");
  });

  it("adds a final line break the old side lacked", () => {
    const out = applyHunks(
      "a\nb",
      hunksOf("@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n"),
      "f.txt",
    );
    expect(out).toBe("a\nb\nc\n");
  });

  it("removes the final line break when the new side says so", () => {
    const out = applyHunks(
      "a\nb\n",
      hunksOf("@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n"),
      "f.txt",
    );
    expect(out).toBe("a\nc");
  });

  it("inserts the lines of a hunk without old lines after the stated line", () => {
    expect(applyHunks("a\nb\n", hunksOf("@@ -1,0 +2,1 @@\n+inserted\n"), "f.txt")).toBe("a\ninserted\nb\n");
    expect(applyHunks("", hunksOf("@@ -0,0 +1,2 @@\n+x\n+y\n"), "f.txt")).toBe("x\ny\n");
  });

  it("searches the whole file for a hunk with a bare @@ header", () => {
    expect(applyHunks(numbered(50), hunksOf("@@\n line 40\n-line 41\n+X\n"), "f.txt")).toContain(
      "line 40\nX\nline 42",
    );
  });
});
