import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executeTool } from "../../framework/execute";
import { parseEnvelope } from "../../patch/envelope/parse";
import { planEnvelope } from "../../patch/envelope/plan";
import { folderSnapshot, memorySource, withWrites } from "../../patch/testing";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";
import { applyPatchTool } from ".";

const FILES = {
  "app.py": "import os\n\n\ndef main():\n    print('hi')\n    return 0\n\n\ndef helper():\n    return 1\n",
  "notes.txt": "first\nsecond\n",
  "crlf.txt": "\uFEFFa\r\nb\r\n",
};

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace(FILES);
});
afterEach(() => ws.cleanup());

const apply = (body: string) =>
  executeTool(applyPatchTool, { patch: `*** Begin Patch\n${body}\n*** End Patch` }, ws.context());
const onDisk = (file: string) => readFileSync(path.join(ws.root, file), "utf8");

describe("apply_patch", () => {
  it("applies several chunks, an added file and a deletion in one call", async () => {
    const { result, output } = await apply(`*** Update File: app.py
@@ def main():
-    print('hi')
+    print('hello')
     return 0
@@ def helper():
-    return 1
+    return 2
*** End of File
*** Add File: docs/readme.md
+# Docs
*** Delete File: notes.txt`);
    expect(result).toEqual({
      ok: true,
      applied: true,
      results: [
        { path: "app.py", operation: "modified", additions: 2, deletions: 2 },
        { path: "docs/readme.md", operation: "created", additions: 1, deletions: 0 },
        { path: "notes.txt", operation: "deleted", additions: 0, deletions: 2 },
      ],
    });
    expect(onDisk("app.py")).toBe(
      FILES["app.py"].replace("print('hi')", "print('hello')").replace("return 1", "return 2"),
    );
    expect(onDisk("docs/readme.md")).toBe("# Docs\n");
    expect(existsSync(path.join(ws.root, "notes.txt"))).toBe(false);
    expect(output).toContain("M app.py (+2 -2)");
  });

  it("moves a file while changing it", async () => {
    const { result } = await apply(
      "*** Update File: notes.txt\n*** Move to: archive/notes.txt\n@@\n first\n-second\n+2nd",
    );
    expect(result).toMatchObject({
      ok: true,
      results: [{ path: "notes.txt", operation: "renamed", newPath: "archive/notes.txt" }],
    });
    expect(existsSync(path.join(ws.root, "notes.txt"))).toBe(false);
    expect(onDisk("archive/notes.txt")).toBe("first\n2nd\n");
  });

  it("keeps a file's CRLF line endings and BOM", async () => {
    await apply("*** Update File: crlf.txt\n@@\n a\n-b\n+c");
    expect(onDisk("crlf.txt")).toBe("\uFEFFa\r\nc\r\n");
  });

  it("writes nothing when a later chunk does not apply, and names its file and chunk", async () => {
    const { result } = await apply(
      "*** Add File: new.txt\n+x\n*** Update File: app.py\n@@\n-    return 0\n+    return 9\n@@\n-    return 5\n+    return 6",
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: "conflict", message: expect.stringContaining("chunk 2 of app.py") },
    });
    expect(folderSnapshot(ws.root)).toEqual(FILES);
  });

  it("refuses a patch without the envelope", async () => {
    const { result } = await executeTool(applyPatchTool, { patch: "--- a/x\n+++ b/x\n" }, ws.context());
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("asks for the edit permission on every path, move targets included", () => {
    const request = applyPatchTool.approval?.({
      patch:
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** Delete File: c.txt\n*** End Patch",
    });
    expect(request).toMatchObject({ permission: "edit", patterns: ["a.txt", "b.txt", "c.txt"] });
  });
});

describe("apply_patch outside the workspace", () => {
  beforeEach(() => {
    writeFileSync(path.join(ws.outside, "secret.txt"), "secret\n");
    symlinkSync(ws.outside, path.join(ws.root, "dir-link"));
  });

  it.each([
    [
      "a relative path climbing out with ..",
      () => "*** Update File: ../outside/secret.txt\n@@\n-secret\n+pwned",
    ],
    ["an absolute path outside", () => `*** Delete File: ${path.join(ws.outside, "secret.txt")}`],
    [
      "a path through a symlinked folder that leads outside",
      () => "*** Update File: dir-link/secret.txt\n@@\n-secret\n+pwned",
    ],
    ["a new file outside", () => "*** Add File: dir-link/new.txt\n+x"],
    [
      "a move target outside",
      () => "*** Update File: notes.txt\n*** Move to: ../outside/moved.txt\n@@\n-first\n+1st",
    ],
  ])("refuses %s with permission_denied and writes nothing", async (_form, body) => {
    const { result } = await apply(`*** Add File: inside.txt\n+x\n${body()}`);
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(readdirSync(ws.outside)).toEqual(["secret.txt"]);
    expect(readFileSync(path.join(ws.outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect(existsSync(path.join(ws.root, "inside.txt"))).toBe(false);
  });
});

describe("apply_patch, whatever the input", () => {
  const names = Object.keys(FILES);
  const lineOf = (file: string) =>
    fc.constantFrom(
      ...(FILES[file as keyof typeof FILES] ?? "x\n")
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/)
        .filter(Boolean),
    );
  const changeLine = (file: string) =>
    fc.oneof(
      lineOf(file).map((l) => ` ${l}`),
      lineOf(file).map((l) => `-${l}`),
      fc.string({ maxLength: 8 }).map((l) => `+${l}`),
      fc.string({ maxLength: 8 }).map((l) => `-${l}`),
    );
  const operation = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(...names, "missing.txt"),
        fc.option(fc.constantFrom("moved.txt", "notes.txt", "../out.txt")),
      )
      .chain(([file, moveTo]) =>
        fc
          .array(fc.array(changeLine(file), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 })
          .map((chunks) => {
            const move = moveTo === null ? "" : `*** Move to: ${moveTo}\n`;
            return `*** Update File: ${file}\n${move}${chunks.map((c) => `@@\n${c.join("\n")}`).join("\n")}`;
          }),
      ),
    fc.constantFrom(...names, "fresh.txt").map((file) => `*** Add File: ${file}\n+made`),
    fc.constantFrom(...names, "missing.txt").map((file) => `*** Delete File: ${file}`),
  );

  it("changes all the files the plan names, or none of them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 4 }), async (operations) => {
        rmSync(ws.root, { recursive: true, force: true });
        for (const [name, content] of Object.entries(FILES)) ws.write(name, content);
        const text = `*** Begin Patch\n${operations.join("\n")}\n*** End Patch`;
        const { result } = await executeTool(applyPatchTool, { patch: text }, ws.context());
        const after = folderSnapshot(ws.root);
        if (!result.ok) {
          expect(after).toEqual(FILES);
          return;
        }
        const parsed = parseEnvelope(text);
        if (!parsed.ok) throw new Error("applied a patch that does not parse");
        const planned = await planEnvelope(parsed.value, memorySource(FILES));
        if (!planned.ok) throw new Error("applied a patch that does not plan");
        expect(after).toEqual(withWrites(FILES, planned.value.writes));
      }),
      { numRuns: 80 },
    );
  });
});
