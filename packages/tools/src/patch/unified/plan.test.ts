import { describe, expect, it } from "vitest";
import { memorySource } from "../testing";
import { parseUnifiedDiff } from "./parse";
import { planUnifiedDiff } from "./plan";

async function plan(patch: string, files: Record<string, string>) {
  const parsed = parseUnifiedDiff(patch);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return planUnifiedDiff(parsed.value, memorySource(files));
}

describe("planUnifiedDiff", () => {
  it("plans a modification, a creation and a deletion together without writing anything", async () => {
    const files = { "a.txt": "one\ntwo\n", "old.txt": "bye\n" };
    const result = await plan(
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n--- /dev/null\n+++ b/dir/new.txt\n@@ -0,0 +1 @@\n+hi\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n",
      files,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        changes: [
          { path: "a.txt", operation: "modified", content: "one\n2\n", additions: 1, deletions: 1 },
          { path: "dir/new.txt", operation: "created", content: "hi\n", additions: 1, deletions: 0 },
          { path: "old.txt", operation: "deleted", content: null, additions: 0, deletions: 1 },
        ],
        writes: [
          { absolute: "/workspace/a.txt", content: "one\n2\n", original: "one\ntwo\n" },
          { absolute: "/workspace/dir/new.txt", content: "hi\n", original: null },
          { absolute: "/workspace/old.txt", content: null, original: "bye\n" },
        ],
      },
    });
    expect(files).toEqual({ "a.txt": "one\ntwo\n", "old.txt": "bye\n" });
  });

  it("renames and modifies a file in one section", async () => {
    const result = await plan(
      "diff --git a/src/a.ts b/lib/a.ts\nsimilarity index 80%\nrename from src/a.ts\nrename to lib/a.ts\n--- a/src/a.ts\n+++ b/lib/a.ts\n@@ -1 +1 @@\n-x\n+y\n",
      { "src/a.ts": "x\n" },
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        changes: [{ path: "src/a.ts", operation: "renamed", newPath: "lib/a.ts", content: "y\n" }],
        writes: [
          { absolute: "/workspace/src/a.ts", content: null },
          { absolute: "/workspace/lib/a.ts", content: "y\n" },
        ],
      },
    });
  });

  it("keeps a CRLF file's line endings and BOM", async () => {
    const result = await plan("--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", {
      "w.txt": "\uFEFFa\r\nb\r\n",
    });
    expect(result).toMatchObject({ ok: true, value: { writes: [{ content: "\uFEFFa\r\nc\r\n" }] } });
  });

  it("lets a later section build on an earlier one for the same file", async () => {
    const result = await plan(
      "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-b\n+c\n",
      { f: "a\n" },
    );
    expect(result).toMatchObject({
      ok: true,
      value: { writes: [{ absolute: "/workspace/f", content: "c\n" }] },
    });
  });

  it("patches the file that exists in a diff between two names", async () => {
    const result = await plan("--- f.txt.orig\n+++ f.txt\n@@ -1 +1 @@\n-a\n+b\n", { "f.txt": "a\n" });
    expect(result).toMatchObject({
      ok: true,
      value: { changes: [{ path: "f.txt", operation: "modified" }] },
    });
  });

  it.each([
    ["creating a file that exists", "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n", "conflict"],
    [
      "changing a file that does not exist",
      "--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-a\n+b\n",
      "not_found",
    ],
    [
      "deleting a file without removing all of it",
      "--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n",
      "conflict",
    ],
    [
      "renaming onto a file that exists",
      "diff --git a/a.txt b/b.txt\nrename from a.txt\nrename to b.txt\n",
      "conflict",
    ],
    [
      "a second file whose hunk does not apply",
      "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-nope\n+x\n",
      "conflict",
    ],
    [
      "a path outside the workspace",
      "--- a/../escape.txt\n+++ b/../escape.txt\n@@ -1 +1 @@\n-a\n+b\n",
      "permission_denied",
    ],
  ])("fails on %s with nothing planned", async (_name, patch, code) => {
    const result = await plan(patch, { "a.txt": "one\ntwo\n", "b.txt": "b\n" });
    expect(result).toMatchObject({ ok: false, error: { code } });
  });
});
