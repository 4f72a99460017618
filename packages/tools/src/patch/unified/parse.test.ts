import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "./parse";

function parsed(patch: string) {
  const result = parseUnifiedDiff(patch);
  if (!result.ok) throw new Error(`expected the patch to parse: ${result.error.message}`);
  return result.value;
}

describe("parseUnifiedDiff", () => {
  it("reads a plain diff with timestamps and strips the a/ b/ prefixes", () => {
    const [file] = parsed(
      "--- a/src/app.ts\t2024-01-01 10:00:00\n+++ b/src/app.ts\t2024-01-02 10:00:00\n@@ -3,2 +3,2 @@ function main() {\n keep\n-old\n+new\n",
    );
    expect(file).toEqual({
      oldPath: "src/app.ts",
      newPath: "src/app.ts",
      renamed: false,
      hunks: [
        {
          oldStart: 3,
          lines: [
            { op: " ", text: "keep" },
            { op: "-", text: "old" },
            { op: "+", text: "new" },
          ],
          oldNoNewline: false,
          newNoNewline: false,
        },
      ],
    });
  });

  it("keeps paths without prefixes as written", () => {
    const [file] = parsed("--- notes.txt.orig\n+++ notes.txt\n@@ -1 +1 @@\n-a\n+b\n");
    expect(file).toMatchObject({ oldPath: "notes.txt.orig", newPath: "notes.txt" });
  });

  it("reads several files of a git diff, with new, deleted and renamed files", () => {
    const files = parsed(`Commit message to skip

diff --git a/new.txt b/new.txt
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+hello
+world
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old name.txt b/new name.txt
similarity index 90%
rename from old name.txt
rename to new name.txt
--- a/old name.txt
+++ b/new name.txt
@@ -1 +1 @@
-x
+y
diff --git a/moved.txt b/place/moved.txt
similarity index 100%
rename from moved.txt
rename to place/moved.txt
`);
    expect(
      files.map(({ oldPath, newPath, renamed, hunks }) => [oldPath, newPath, renamed, hunks.length]),
    ).toEqual([
      [null, "new.txt", false, 1],
      ["gone.txt", null, false, 1],
      ["old name.txt", "new name.txt", true, 1],
      ["moved.txt", "place/moved.txt", true, 0],
    ]);
  });

  it("reads an empty new file that has no hunks", () => {
    expect(
      parsed("diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex 0000000..e69de29\n"),
    ).toEqual([{ oldPath: null, newPath: "empty.txt", renamed: false, hunks: [] }]);
  });

  it("marks the sides that lack a final line break", () => {
    const [file] = parsed("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n");
    expect(file?.hunks[0]).toMatchObject({ oldNoNewline: true, newNoNewline: false });
    const [other] = parsed("--- a/f\n+++ b/f\n@@ -1 +1 @@\n ctx\n+new\n\\ No newline at end of file\n");
    expect(other?.hunks[0]).toMatchObject({ oldNoNewline: false, newNoNewline: true });
  });

  it("unquotes git's C-style quoted paths", () => {
    const [file] = parsed('--- "a/tab\\there"\n+++ "b/caf\\303\\251.txt"\n@@ -1 +1 @@\n-a\n+b\n');
    expect(file).toMatchObject({ oldPath: "tab\there", newPath: "café.txt" });
  });

  it("does not trust hunk line counts, and drops blank separator lines after a hunk", () => {
    const [first, second] = parsed(
      "--- a/f\n+++ b/f\n@@ -1,9 +1,9 @@\n a\n-b\n+c\n\n\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-x\n+y\n",
    );
    expect(first?.hunks[0]?.lines).toHaveLength(3);
    expect(second?.hunks[0]?.lines).toHaveLength(2);
    const [miscounted] = parsed("--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n a\n-b\n+c\n d\n");
    expect(miscounted?.hunks[0]?.lines).toHaveLength(4);
  });

  it("reads an empty context line whose leading space was lost", () => {
    const [file] = parsed("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n");
    expect(file?.hunks[0]?.lines).toEqual([
      { op: " ", text: "a" },
      { op: " ", text: "" },
      { op: "-", text: "b" },
      { op: "+", text: "c" },
    ]);
  });

  it("accepts a bare @@ header without line numbers", () => {
    const [file] = parsed("--- a/f\n+++ b/f\n@@\n-b\n+c\n");
    expect(file?.hunks[0]?.oldStart).toBeUndefined();
  });

  it("reads a removed line that looks like a file header", () => {
    const [file] = parsed("--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,1 @@\n--- a comment\n select 1;\n");
    expect(file?.hunks[0]?.lines[0]).toEqual({ op: "-", text: "-- a comment" });
  });

  it.each([
    ["text without any diff", "just some words\n"],
    ["a hunk before any file header", "@@ -1 +1 @@\n-a\n+b\n"],
    ["a malformed hunk header", "--- a/f\n+++ b/f\n@@ -x +y @@\n-a\n"],
    ["a hunk that changes nothing", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n a\n"],
    ["a binary patch", "diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n"],
    ["both sides /dev/null", "--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n"],
  ])("refuses %s with invalid_args", (_name, patch) => {
    expect(parseUnifiedDiff(patch)).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("answers any input with files or a typed error, never a throw", () => {
    const line = fc.oneof(
      fc.constantFrom(
        "--- a/f",
        "+++ b/f",
        "--- /dev/null",
        "+++ /dev/null",
        "@@ -1,2 +1,2 @@",
        "@@",
        "diff --git a/f b/f",
      ),
      fc.constantFrom(
        "rename from x",
        "rename to y",
        "new file mode 100644",
        "\\ No newline at end of file",
        "",
      ),
      fc.string().map((s) => ` ${s}`),
      fc.string().map((s) => `-${s}`),
      fc.string().map((s) => `+${s}`),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const result = parseUnifiedDiff(lines.join("\n"));
        if (!result.ok) expect(result.error.code).toBe("invalid_args");
        else
          for (const file of result.value) expect(file.oldPath !== null || file.newPath !== null).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
