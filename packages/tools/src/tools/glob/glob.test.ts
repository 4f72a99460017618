import { utimesSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolsConfig } from "../../framework/types";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";

const engines: [string, ToolsConfig][] = [
  ["ripgrep", {}],
  ["built-in search", { ripgrep: false }],
];

describe.each(engines)("glob with %s", (_name, config) => {
  let ws: TestWorkspace;
  beforeEach(() => {
    ws = createTestWorkspace(
      {
        ".gitignore": "dist/\n*.log\n",
        "src/a.ts": "",
        "src/deep/b.ts": "",
        "src/c.js": "",
        "dist/out.ts": "",
        "debug.log": "",
        ".github/ci.ts": "",
        "README.md": "",
      },
      config,
    );
    // Distinct modification times, oldest first: a.ts, b.ts, ci.ts.
    const stamp = (relative: string, seconds: number) => {
      const when = new Date(1_700_000_000_000 + seconds * 1000);
      utimesSync(path.join(ws.root, relative), when, when);
    };
    stamp("src/a.ts", 1);
    stamp("src/deep/b.ts", 2);
    stamp(".github/ci.ts", 3);
  });
  afterEach(() => ws.cleanup());

  it("matches names at any depth, newest first, skipping ignored files", async () => {
    const { result, output } = await ws.call("glob", { pattern: "*.ts" });
    expect(result).toEqual({
      ok: true,
      matches: [".github/ci.ts", "src/deep/b.ts", "src/a.ts"],
      truncated: false,
    });
    expect(output).toBe(".github/ci.ts\nsrc/deep/b.ts\nsrc/a.ts");
  });

  it("matches patterns with a slash against paths relative to the search folder", async () => {
    expect((await ws.call("glob", { pattern: "src/*.{ts,js}" })).result.matches).toEqual(
      expect.arrayContaining(["src/a.ts", "src/c.js"]),
    );
    expect((await ws.call("glob", { pattern: "deep/*.ts", path: "src" })).result.matches).toEqual([
      "src/deep/b.ts",
    ]);
  });

  it("answers an empty list when nothing matches", async () => {
    const { result, output } = await ws.call("glob", { pattern: "**/*.rs" });
    expect(result).toEqual({ ok: true, matches: [], truncated: false });
    expect(output).toBe("No files found");
  });

  it("returns at most 100 matches and says it cut the list", async () => {
    for (let i = 0; i < 120; i++) ws.write(`many/f${i}.txt`, "");
    const { result, output } = await ws.call("glob", { pattern: "many/*.txt" });
    expect((result.matches as string[]).length).toBe(100);
    expect(result.truncated).toBe(true);
    expect(output).toContain("showing the 100 newest");
  });

  it("refuses absolute patterns", async () => {
    expect((await ws.call("glob", { pattern: "/etc/*" })).result.error?.code).toBe("invalid_args");
    expect((await ws.call("glob", { pattern: `${ws.root}/**/*.ts` })).result.error?.code).toBe(
      "invalid_args",
    );
  });

  it("refuses patterns that climb out with ..", async () => {
    expect((await ws.call("glob", { pattern: "../**/*" })).result.error?.code).toBe("permission_denied");
  });

  it("answers not_found for a missing folder", async () => {
    expect((await ws.call("glob", { pattern: "*", path: "nope" })).result.error?.code).toBe("not_found");
  });
});
