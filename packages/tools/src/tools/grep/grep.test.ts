import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolsConfig } from "../../framework/types";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";

const engines: [string, ToolsConfig][] = [
  ["ripgrep", {}],
  ["built-in search", { ripgrep: false }],
];

describe.each(engines)("grep with %s", (_name, config) => {
  let ws: TestWorkspace;
  beforeEach(() => {
    ws = createTestWorkspace(
      {
        ".gitignore": "build/\n",
        "src/app.ts": "import x from 'y';\nfunction main() {\n  // TODO: main\n}\n",
        "src/util.js": "export function helper() {}\n// TODO later\n",
        "build/app.js": "function main() {}\n",
        "docs/notes.md": "nothing here\r\nTODO: docs\r\n",
        ".config/settings.ts": "// TODO hidden but not ignored\n",
      },
      config,
    );
    writeFileSync(path.join(ws.root, "src/blob.bin"), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1, 2, 10]));
  });
  afterEach(() => ws.cleanup());

  it("finds matching lines grouped by file, skipping ignored and binary files", async () => {
    const { result, output } = await ws.call("grep", { pattern: "TODO" });
    expect(result).toEqual({
      ok: true,
      count: 4,
      truncated: false,
      matches: [
        { path: ".config/settings.ts", line: 1, text: "// TODO hidden but not ignored" },
        { path: "docs/notes.md", line: 2, text: "TODO: docs" },
        { path: "src/app.ts", line: 3, text: "  // TODO: main" },
        { path: "src/util.js", line: 2, text: "// TODO later" },
      ],
    });
    expect(output).toContain(
      "Found 4 matches\n\n.config/settings.ts:\n  1: // TODO hidden but not ignored\n",
    );
  });

  it("treats the pattern as a regular expression", async () => {
    const { result } = await ws.call("grep", { pattern: "function\\s+\\w+\\(\\)" });
    expect((result.matches as { path: string }[]).map((m) => m.path)).toEqual(["src/app.ts", "src/util.js"]);
  });

  it("limits the search to files matching include", async () => {
    const { result } = await ws.call("grep", { pattern: "TODO", include: "*.ts" });
    expect((result.matches as { path: string }[]).map((m) => m.path)).toEqual([
      ".config/settings.ts",
      "src/app.ts",
    ]);
  });

  it("searches one folder or one file given as path", async () => {
    expect((await ws.call("grep", { pattern: "TODO", path: "src" })).result.count).toBe(2);
    expect((await ws.call("grep", { pattern: "TODO", path: "src/util.js" })).result.matches).toEqual([
      { path: "src/util.js", line: 2, text: "// TODO later" },
    ]);
  });

  it("searches an ignored folder when asked for it by name", async () => {
    expect((await ws.call("grep", { pattern: "main", path: "build" })).result.count).toBe(1);
  });

  it("finds nothing in a binary file asked for by name", async () => {
    expect((await ws.call("grep", { pattern: "TODO", path: "src/blob.bin" })).result).toMatchObject({
      ok: true,
      count: 0,
    });
  });

  it("stops at max_matches and says the list was cut", async () => {
    ws.write("many.txt", "hit\n".repeat(50));
    const { result, output } = await ws.call("grep", { pattern: "hit", path: "many.txt", max_matches: 10 });
    expect(result).toMatchObject({ ok: true, count: 10, truncated: true });
    expect(output).toContain("Found more than 10 matches");
  });

  it("answers invalid_args for an invalid regular expression", async () => {
    const { result } = await ws.call("grep", { pattern: "foo(" });
    expect(result.error?.code).toBe("invalid_args");
    expect(result.error?.hint).toContain("escape");
  });

  it("accepts look-ahead, which only JavaScript regular expressions support", async () => {
    const { result } = await ws.call("grep", { pattern: "TODO(?=:)" });
    expect(result.count).toBe(2);
  });

  it("does not follow a symlink out of the workspace while walking", async () => {
    writeFileSync(path.join(ws.outside, "secret.txt"), "TODO secret\n");
    symlinkSync(ws.outside, path.join(ws.root, "escape"));
    symlinkSync(path.join(ws.outside, "secret.txt"), path.join(ws.root, "secret-link.txt"));
    const { result } = await ws.call("grep", { pattern: "secret" });
    expect(result.count).toBe(0);
  });

  it("cuts very long matching lines", async () => {
    ws.write("min.js", `${"a".repeat(3000)}TODO\n`);
    const { result } = await ws.call("grep", { pattern: "TODO", path: "min.js" });
    const [match] = result.matches as { text: string }[];
    expect(match?.text.length).toBeLessThan(600);
    expect(match?.text).toContain("[line cut]");
  });

  it("answers not_found for a missing path", async () => {
    expect((await ws.call("grep", { pattern: "x", path: "missing" })).result.error?.code).toBe("not_found");
  });

  it("answers no matches plainly", async () => {
    const { result, output } = await ws.call("grep", { pattern: "zzz-not-there" });
    expect(result).toEqual({ ok: true, count: 0, matches: [], truncated: false });
    expect(output).toBe("No matches found");
  });
});
