import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({ "hundred.txt": `${numbered(100)}\n`, "src/app.ts": "const a = 1;\n" });
});
afterEach(() => ws.cleanup());

describe("read", () => {
  it("returns the first 50 lines by default, numbered for the model", async () => {
    const { result, output } = await ws.call("read", { path: "hundred.txt" });
    expect(result).toMatchObject({
      ok: true,
      path: "hundred.txt",
      start_line: 1,
      end_line: 50,
      has_more: true,
      total_lines: 100,
    });
    expect(result.content).toBe(numbered(50));
    expect(output).toContain("     1\tline 1\n");
    expect(output).toContain("    50\tline 50\n");
    expect(output).toContain("use offset 51");
  });

  it("reads a window from a 1-based offset", async () => {
    const { result } = await ws.call("read", { path: "hundred.txt", offset: 91, limit: 5 });
    expect(result).toMatchObject({
      start_line: 91,
      end_line: 95,
      has_more: true,
      content: numbered(95).split("\n").slice(90).join("\n"),
    });
  });

  it("treats offset 0 as 1 and a limit of 0 or less as 50", async () => {
    const { result } = await ws.call("read", { path: "hundred.txt", offset: 0, limit: -3 });
    expect(result).toMatchObject({ start_line: 1, end_line: 50 });
  });

  it("caps the limit at 200 lines", async () => {
    ws.write("big.txt", numbered(500));
    const { result } = await ws.call("read", { path: "big.txt", limit: 1000 });
    expect(result).toMatchObject({ start_line: 1, end_line: 200, has_more: true, total_lines: 500 });
  });

  it("reads the last lines with a negative offset (tail mode), capped at 200", async () => {
    expect((await ws.call("read", { path: "hundred.txt", offset: -3 })).result).toMatchObject({
      content: "line 98\nline 99\nline 100",
      start_line: 98,
      end_line: 100,
      has_more: false,
    });
    ws.write("big.txt", numbered(500));
    expect((await ws.call("read", { path: "big.txt", offset: -1000 })).result).toMatchObject({
      start_line: 301,
      end_line: 500,
    });
  });

  it("answers an empty page past the end of the file", async () => {
    const { result, output } = await ws.call("read", { path: "hundred.txt", offset: 500 });
    expect(result).toMatchObject({ ok: true, content: "", has_more: false, start_line: 0, end_line: 0 });
    expect(output).toContain("the file has 100 lines");
  });

  it("reads an empty file", async () => {
    ws.write("empty.txt", "");
    expect((await ws.call("read", { path: "empty.txt" })).result).toMatchObject({
      ok: true,
      content: "",
      total_lines: 0,
    });
  });

  it("strips CR of CRLF lines and a BOM, and counts a last line without newline", async () => {
    ws.write("win.txt", "\uFEFFone\r\ntwo\r\nthree");
    expect((await ws.call("read", { path: "win.txt" })).result).toMatchObject({
      content: "one\ntwo\nthree",
      total_lines: 3,
    });
  });

  it("cuts lines longer than 2000 characters with a marker", async () => {
    ws.write("long.txt", `${"x".repeat(5000)}\nshort\n`);
    const { result } = await ws.call("read", { path: "long.txt" });
    const [first, second] = (result.content as string).split("\n");
    expect(first?.startsWith("x".repeat(2000))).toBe(true);
    expect(first).toContain("[line cut at 2000 characters]");
    expect(second).toBe("short");
    expect(result.cut_lines).toBe(1);
  });

  it("stops a page before it grows past 50 KB and says there is more", async () => {
    ws.write("wide.txt", `${Array.from({ length: 150 }, () => "w".repeat(1000)).join("\n")}\n`);
    const { result } = await ws.call("read", { path: "wide.txt", limit: 200 });
    expect(result.end_line).toBeLessThan(60);
    expect(result.has_more).toBe(true);
  });

  it("lists a folder's entries", async () => {
    const { result, output } = await ws.call("read", { path: "src" });
    expect(result).toMatchObject({
      ok: true,
      is_directory: true,
      items: [{ name: "app.ts", path: "src/app.ts", is_dir: false }],
    });
    expect(output).toContain("src is a folder");
  });

  it("refuses a binary file", async () => {
    ws.write("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    expect((await ws.call("read", { path: "image.png" })).result.error?.code).toBe("binary_file");
  });

  it("answers not_found with up to 3 similar names", async () => {
    ws.write("src/apps.ts", "");
    ws.write("src/app.js", "");
    ws.write("src/zebra.md", "");
    const { result } = await ws.call("read", { path: "src/ap.ts" });
    expect(result.error?.code).toBe("not_found");
    expect(result.error?.hint).toContain("src/app.ts");
    expect(result.error?.hint).not.toContain("zebra");
  });

  it("answers not_found for a missing folder without suggestions", async () => {
    const { result } = await ws.call("read", { path: "nowhere/file.ts" });
    expect(result.error).toMatchObject({
      code: "not_found",
      hint: "use list or glob to find the right path",
    });
  });

  it("records the read so the file may be written next", async () => {
    await ws.call("read", { path: "src/app.ts", limit: 1 });
    expect(ws.session.files.has(path.join(ws.root, "src/app.ts"))).toBe(true);
  });

  it("reads a spilled output file by its absolute path outside the workspace", async () => {
    const spill = await ws.call("bash", { command: "seq 1 3000" }, { callId: "seq" });
    const spilled = path.join(ws.spillDir, "seq.txt");
    expect(spill.output).toContain(spilled);
    const { result } = await ws.call("read", { path: spilled, offset: -2 });
    expect(result).toMatchObject({ ok: true, path: spilled, content: "2999\n3000" });
  });

  it("refuses invalid arguments with a readable message", async () => {
    const { result } = await ws.call("read", { path: "a.txt", offset: 1.5 });
    expect(result.error).toMatchObject({ code: "invalid_args" });
    expect(result.error?.message).toContain("offset");
  });
});

describe("read on a large file", () => {
  it("reads a window deep in a file with many lines without reading it into memory first", async () => {
    const file = path.join(ws.root, "many.txt");
    writeFileSync(file, `${numbered(300_000)}\n`);
    const { result } = await ws.call("read", { path: "many.txt", offset: 250_001, limit: 2 });
    expect(result).toMatchObject({
      content: "line 250001\nline 250002",
      total_lines: 300_000,
      has_more: true,
    });
  });
});
