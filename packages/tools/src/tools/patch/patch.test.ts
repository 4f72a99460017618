import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executeTool } from "../../framework/execute";
import { folderSnapshot, memorySource, withWrites } from "../../patch/testing";
import { parseUnifiedDiff } from "../../patch/unified/parse";
import { planUnifiedDiff } from "../../patch/unified/plan";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";
import { patchTool } from ".";

const FILES = {
  "a.txt": "one\ntwo\nthree\n",
  "b.txt": "alpha\nbeta\ngamma\n",
  "src/c.ts": "export const c = 1;\n",
};

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace(FILES);
});
afterEach(() => ws.cleanup());

const patch = (text: string, dryRun?: boolean) =>
  executeTool(
    patchTool,
    dryRun === undefined ? { patch: text } : { patch: text, dry_run: dryRun },
    ws.context(),
  );
const onDisk = (file: string) => readFileSync(path.join(ws.root, file), "utf8");

const MODIFY_A = "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n";
const BAD_B = "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n alpha\n-BETA\n+b\n";

describe("patch", () => {
  it("applies a patch to several files and lists each with its operation", async () => {
    const { result, output } = await patch(
      `${MODIFY_A}--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+# New\n+text\n--- a/b.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-alpha\n-beta\n-gamma\n`,
    );
    expect(result).toEqual({
      ok: true,
      applied: true,
      results: [
        { path: "a.txt", operation: "modified", additions: 1, deletions: 1 },
        { path: "docs/new.md", operation: "created", additions: 2, deletions: 0 },
        { path: "b.txt", operation: "deleted", additions: 0, deletions: 3 },
      ],
    });
    expect(onDisk("a.txt")).toBe("one\n2\nthree\n");
    expect(onDisk("docs/new.md")).toBe("# New\ntext\n");
    expect(existsSync(path.join(ws.root, "b.txt"))).toBe(false);
    expect(output).toBe(
      "Applied the patch: 3 files changed\nM a.txt (+1 -1)\nA docs/new.md (+2 -0)\nD b.txt (+0 -3)",
    );
  });

  it("renames and modifies a file", async () => {
    const { result } = await patch(
      "diff --git a/src/c.ts b/lib/c.ts\nrename from src/c.ts\nrename to lib/c.ts\n--- a/src/c.ts\n+++ b/lib/c.ts\n@@ -1 +1 @@\n-export const c = 1;\n+export const c = 2;\n",
    );
    expect(result).toMatchObject({
      ok: true,
      results: [{ path: "src/c.ts", operation: "renamed", newPath: "lib/c.ts" }],
    });
    expect(existsSync(path.join(ws.root, "src/c.ts"))).toBe(false);
    expect(onDisk("lib/c.ts")).toBe("export const c = 2;\n");
  });

  it("writes nothing when the second file's hunk does not apply, and names that file and hunk", async () => {
    const { result } = await patch(MODIFY_A + BAD_B);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "conflict", message: expect.stringContaining("hunk 1 of b.txt") },
    });
    expect(folderSnapshot(ws.root)).toEqual(FILES);
  });

  it("checks without writing on a dry run", async () => {
    const { result, output } = await patch(MODIFY_A, true);
    expect(result).toEqual({
      ok: true,
      applied: false,
      dry_run: true,
      results: [{ path: "a.txt", operation: "modified", additions: 1, deletions: 1 }],
    });
    expect(output).toMatch(/^Checked the patch \(dry run, nothing written\)/);
    expect(folderSnapshot(ws.root)).toEqual(FILES);
  });

  it("restores every file when a write fails midway", async () => {
    writeFileSync(path.join(ws.root, "blocker"), "x");
    const { result } = await patch(`${MODIFY_A}--- /dev/null\n+++ b/blocker/new.txt\n@@ -0,0 +1 @@\n+x\n`);
    expect(result).toMatchObject({ ok: false, error: { code: "io_error" } });
    expect(folderSnapshot(ws.root)).toEqual({ ...FILES, blocker: "x" });
  });

  it("lets the session edit a patched file without reading it again", async () => {
    await patch(MODIFY_A);
    const stat = statSync(path.join(ws.root, "a.txt"));
    expect(ws.session.files.get(path.join(ws.root, "a.txt"))).toEqual({
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      text: readFileSync(path.join(ws.root, "a.txt"), "utf8"),
    });
  });

  it("refuses a patch that is not a unified diff", async () => {
    const { result } = await patch("please change a.txt");
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("asks for the edit permission on every path of the patch", () => {
    expect(patchTool.approval?.({ patch: MODIFY_A + BAD_B })).toMatchObject({
      permission: "edit",
      patterns: ["a.txt", "b.txt"],
    });
    expect(patchTool.approval?.({ patch: "nonsense" })).toMatchObject({
      permission: "edit",
      patterns: ["*"],
    });
  });
});

describe("patch outside the workspace", () => {
  beforeEach(() => {
    writeFileSync(path.join(ws.outside, "secret.txt"), "secret\n");
    symlinkSync(ws.outside, path.join(ws.root, "dir-link"));
  });

  const modify = (target: string) => `--- ${target}\n+++ ${target}\n@@ -1 +1 @@\n-secret\n+pwned\n`;
  it.each([
    ["a relative path climbing out with ..", () => modify("../outside/secret.txt")],
    ["an absolute path outside", () => modify(path.join(ws.outside, "secret.txt"))],
    ["a path through a symlinked folder that leads outside", () => modify("dir-link/secret.txt")],
    ["a new file outside", () => "--- /dev/null\n+++ ../outside/new.txt\n@@ -0,0 +1 @@\n+x\n"],
    [
      "a rename target outside",
      () => "diff --git a/a.txt b/a.txt\nrename from a.txt\nrename to ../outside/moved.txt\n",
    ],
  ])("refuses %s with permission_denied and writes nothing", async (_form, text) => {
    const { result } = await patch(MODIFY_A + text());
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(readdirSync(ws.outside)).toEqual(["secret.txt"]);
    expect(readFileSync(path.join(ws.outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect(onDisk("a.txt")).toBe(FILES["a.txt"]);
  });
});

describe("patch, whatever the input", () => {
  const existing = Object.keys(FILES);
  const lineOf = (file: string) =>
    fc.constantFrom(...(FILES[file as keyof typeof FILES] ?? "x\n").split("\n").filter(Boolean));
  const hunkLine = (file: string) =>
    fc.oneof(
      lineOf(file).map((l) => ` ${l}`),
      lineOf(file).map((l) => `-${l}`),
      fc.string({ maxLength: 8 }).map((l) => `+${l}`),
      fc.string({ maxLength: 8 }).map((l) => ` ${l}`),
    );
  const section = fc.oneof(
    fc
      .tuple(fc.constantFrom(...existing), fc.nat(4))
      .chain(([file, start]) =>
        fc
          .array(hunkLine(file), { minLength: 1, maxLength: 4 })
          .map(
            (lines) => `--- a/${file}\n+++ b/${file}\n@@ -${start},3 +${start},3 @@\n${lines.join("\n")}\n`,
          ),
      ),
    fc
      .constantFrom(...existing, "fresh.txt")
      .map((file) => `--- /dev/null\n+++ b/${file}\n@@ -0,0 +1 @@\n+made\n`),
    fc.constantFrom(...existing).map((file) => {
      const lines = (FILES[file as keyof typeof FILES] ?? "").split("\n").filter(Boolean);
      return `--- a/${file}\n+++ /dev/null\n@@ -1,${lines.length} +0,0 @@\n${lines.map((l) => `-${l}`).join("\n")}\n`;
    }),
    fc
      .tuple(fc.constantFrom(...existing), fc.constantFrom("moved.txt", "b.txt", "../escape.txt"))
      .map(([from, to]) => `diff --git a/${from} b/${to}\nrename from ${from}\nrename to ${to}\n`),
  );

  it("changes all the files the plan names, or none of them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(section, { minLength: 1, maxLength: 4 }), async (sections) => {
        rmSync(ws.root, { recursive: true, force: true });
        for (const [name, content] of Object.entries(FILES)) ws.write(name, content);
        const text = sections.join("");
        const { result } = await patch(text);
        const after = folderSnapshot(ws.root);
        if (!result.ok) {
          expect(after).toEqual(FILES);
          return;
        }
        const parsed = parseUnifiedDiff(text);
        if (!parsed.ok) throw new Error("applied a patch that does not parse");
        const planned = await planUnifiedDiff(parsed.value, memorySource(FILES));
        if (!planned.ok) throw new Error("applied a patch that does not plan");
        expect(after).toEqual(withWrites(FILES, planned.value.writes));
      }),
      { numRuns: 80 },
    );
  });
});
