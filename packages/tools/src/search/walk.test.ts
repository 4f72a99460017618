import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";
import { compileGlob } from "./glob-match";
import { walkFiles } from "./walk";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({
    ".gitignore": "*.log\n!keep.log\nvendor/\n",
    "a.log": "",
    "keep.log": "",
    "src/main.ts": "",
    "src/.gitignore": "*.tmp\n",
    "src/x.tmp": "",
    "src/sub/y.tmp": "",
    "src/sub/z.log": "",
    "vendor/lib.js": "",
    "notes/.ignore": "draft.md\n",
    "notes/draft.md": "",
    "notes/final.md": "",
    ".git/HEAD": "ref",
  });
});
afterEach(() => ws.cleanup());

async function walk(start = ws.root): Promise<string[]> {
  const found: string[] = [];
  for await (const file of walkFiles(ws.root, start, new AbortController().signal)) found.push(file.relative);
  return found.sort();
}

describe("walkFiles", () => {
  it("honours .gitignore and .ignore files at every level, negations included, and skips .git", async () => {
    expect(await walk()).toEqual([
      ".gitignore",
      "keep.log",
      "notes/.ignore",
      "notes/final.md",
      "src/.gitignore",
      "src/main.ts",
    ]);
  });

  it("applies the ignore files of the folders above the start", async () => {
    expect(await walk(path.join(ws.root, "src"))).toEqual([".gitignore", "main.ts"]);
  });

  it("walks an ignored folder when the walk starts inside it", async () => {
    expect(await walk(path.join(ws.root, "vendor"))).toEqual(["lib.js"]);
  });

  it("does not follow symbolic links", async () => {
    symlinkSync(ws.outside, path.join(ws.root, "link"));
    symlinkSync(path.join(ws.root, "src/main.ts"), path.join(ws.root, "alias.ts"));
    expect(await walk()).not.toContain("alias.ts");
    expect((await walk()).some((f) => f.startsWith("link"))).toBe(false);
  });

  it("stops when the signal is aborted", async () => {
    const found: string[] = [];
    for await (const file of walkFiles(ws.root, ws.root, AbortSignal.abort())) found.push(file.relative);
    expect(found).toEqual([]);
  });
});

describe("compileGlob", () => {
  it("matches a pattern without a slash against the name at any depth, dotfiles included", () => {
    const ts = compileGlob("*.ts");
    expect(ts("a.ts")).toBe(true);
    expect(ts("src/deep/b.ts")).toBe(true);
    expect(ts(".hidden/c.ts")).toBe(true);
    expect(ts("a.tsx")).toBe(false);
  });

  it("matches a pattern with a slash against the whole relative path", () => {
    const src = compileGlob("src/**/*.{ts,tsx}");
    expect(src("src/a.tsx")).toBe(true);
    expect(src("src/x/y/b.ts")).toBe(true);
    expect(src("lib/src/a.ts")).toBe(false);
    expect(compileGlob("./src/*.ts")("src/a.ts")).toBe(true);
  });
});
