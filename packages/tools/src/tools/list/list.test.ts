import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({
    "b.txt": "bb",
    "a.txt": "a",
    "src/index.ts": "x",
    "Zdir/file": "",
    ".env": "K=V",
  });
});
afterEach(() => ws.cleanup());

describe("list", () => {
  it("lists the root by default: folders first, then by name, with sizes", async () => {
    const { result, output } = await ws.call("list", {});
    expect(result).toMatchObject({ ok: true, path: ".", truncated: false });
    expect(result.items).toEqual([
      { name: "src", path: "src", is_dir: true, size_bytes: 0 },
      { name: "Zdir", path: "Zdir", is_dir: true, size_bytes: 0 },
      { name: ".env", path: ".env", is_dir: false, size_bytes: 3 },
      { name: "a.txt", path: "a.txt", is_dir: false, size_bytes: 1 },
      { name: "b.txt", path: "b.txt", is_dir: false, size_bytes: 2 },
    ]);
    expect(output.split("\n").slice(0, 3)).toEqual(["src/", "Zdir/", ".env  (3 B)"]);
  });

  it("lists a sub-folder with paths relative to the root", async () => {
    const { result } = await ws.call("list", { path: "src" });
    expect(result.items).toEqual([{ name: "index.ts", path: "src/index.ts", is_dir: false, size_bytes: 1 }]);
  });

  it("shows a symlink leading outside without following it", async () => {
    symlinkSync(ws.outside, path.join(ws.root, "escape"));
    symlinkSync(path.join(ws.root, "src"), path.join(ws.root, "src-link"));
    const items = (await ws.call("list", {})).result.items as { name: string }[];
    expect(items.find((i) => i.name === "escape")).toEqual({
      name: "escape",
      path: "escape",
      is_dir: false,
      size_bytes: 0,
      is_symlink: true,
    });
    expect(items.find((i) => i.name === "src-link")).toMatchObject({ is_dir: true, is_symlink: true });
  });

  it("says an empty folder is empty", async () => {
    mkdirSync(path.join(ws.root, "empty"));
    const { result, output } = await ws.call("list", { path: "empty" });
    expect(result.items).toEqual([]);
    expect(output).toBe("(empty folder)");
  });

  it("answers not_found for a missing folder, suggesting similar names", async () => {
    const { result } = await ws.call("list", { path: "srcs" });
    expect(result.error).toMatchObject({ code: "not_found", hint: "did you mean src?" });
  });

  it("refuses a file with a pointer to read", async () => {
    const { result } = await ws.call("list", { path: "a.txt" });
    expect(result.error).toMatchObject({ code: "invalid_args", hint: "use read to see its contents" });
  });
});
