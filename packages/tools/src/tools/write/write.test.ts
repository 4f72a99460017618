import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({ "notes.txt": "one\ntwo\n" });
});
afterEach(() => ws.cleanup());

const contentOf = (relative: string) => readFileSync(path.join(ws.root, relative), "utf8");

describe("write", () => {
  it("creates a new file and its parent folders, ending it with a newline", async () => {
    const { result, output } = await ws.call("write", { path: "src/deep/new.ts", content: "export {};" });
    expect(result).toMatchObject({
      ok: true,
      path: "src/deep/new.ts",
      operation: "created",
      size: 11,
      additions: 1,
      deletions: 0,
    });
    expect(result.diff).toContain("--- /dev/null\n+++ b/src/deep/new.ts\n@@ -0,0 +1,1 @@\n+export {};");
    expect(contentOf("src/deep/new.ts")).toBe("export {};\n");
    expect(output.split("\n")[0]).toBe("created src/deep/new.ts (11 bytes, +1 -0)");
  });

  it("refuses to overwrite a file the session has not read", async () => {
    const { result } = await ws.call("write", { path: "notes.txt", content: "x" });
    expect(result.error).toMatchObject({ code: "stale_file" });
    expect(result.error?.hint).toContain("read notes.txt");
    expect(contentOf("notes.txt")).toBe("one\ntwo\n");
  });

  it("overwrites a file after reading it and returns a unified diff", async () => {
    await ws.call("read", { path: "notes.txt" });
    const { result } = await ws.call("write", { path: "notes.txt", content: "one\n2\n" });
    expect(result).toMatchObject({ ok: true, operation: "updated", additions: 1, deletions: 1 });
    expect(result.diff).toBe("--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2");
    expect(contentOf("notes.txt")).toBe("one\n2\n");
  });

  it("keeps what someone changed on other lines since the file was read", async () => {
    await ws.call("read", { path: "notes.txt" });
    writeFileSync(path.join(ws.root, "notes.txt"), "one\ntwo\nthree typed by a person\n");
    const { result } = await ws.call("write", { path: "notes.txt", content: "ONE\ntwo\n" });
    expect(result).toMatchObject({ ok: true, operation: "updated", additions: 1, deletions: 1 });
    expect(contentOf("notes.txt")).toBe("ONE\ntwo\nthree typed by a person\n");
  });

  it("refuses to replace lines someone changed since the file was read, quoting them as they are now", async () => {
    await ws.call("read", { path: "notes.txt" });
    writeFileSync(path.join(ws.root, "notes.txt"), "one\ntwo, typed by a person\n");
    const { result } = await ws.call("write", { path: "notes.txt", content: "one\n2\n" });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "stale_file" },
      regions: [{ start_line: 2, text: "two, typed by a person" }],
    });
    expect(contentOf("notes.txt")).toBe("one\ntwo, typed by a person\n");
  });

  it("notices a change that keeps the size but moves the modification time", async () => {
    await ws.call("read", { path: "notes.txt" });
    const file = path.join(ws.root, "notes.txt");
    writeFileSync(file, "ONE\nTWO\n");
    const later = new Date(statSync(file).mtimeMs + 5000);
    utimesSync(file, later, later);
    expect((await ws.call("write", { path: "notes.txt", content: "x" })).result.error?.code).toBe(
      "stale_file",
    );
  });

  it("may write the same file again after its own write without reading it", async () => {
    await ws.call("write", { path: "fresh.txt", content: "a" });
    expect((await ws.call("write", { path: "fresh.txt", content: "b" })).result).toMatchObject({
      ok: true,
      operation: "updated",
    });
  });

  it("keeps CRLF line endings and the BOM of an existing file", async () => {
    ws.write("win.txt", "\uFEFFa\r\nb\r\n");
    await ws.call("read", { path: "win.txt" });
    const { result } = await ws.call("write", { path: "win.txt", content: "a\nb\nc" });
    expect(result).toMatchObject({ ok: true, additions: 1, deletions: 0 });
    expect(contentOf("win.txt")).toBe("\uFEFFa\r\nb\r\nc\r\n");
  });

  it("writes LF to a new file even when the content uses CRLF", async () => {
    await ws.call("write", { path: "unix.txt", content: "a\r\nb\r\n" });
    expect(contentOf("unix.txt")).toBe("a\nb\n");
  });

  it("reports unchanged when the content is the same and leaves the file alone", async () => {
    await ws.call("read", { path: "notes.txt" });
    const before = statSync(path.join(ws.root, "notes.txt")).mtimeMs;
    const { result } = await ws.call("write", { path: "notes.txt", content: "one\ntwo" });
    expect(result).toMatchObject({ ok: true, operation: "unchanged", additions: 0, deletions: 0, diff: "" });
    expect(statSync(path.join(ws.root, "notes.txt")).mtimeMs).toBe(before);
  });

  it("writes an empty file as empty", async () => {
    await ws.call("write", { path: "empty.txt", content: "" });
    expect(contentOf("empty.txt")).toBe("");
  });

  it("refuses to write over a folder", async () => {
    ws.write("dir/inside.txt", "");
    expect((await ws.call("write", { path: "dir", content: "x" })).result.error?.code).toBe("is_directory");
  });

  it("refuses an empty path", async () => {
    expect((await ws.call("write", { path: "", content: "x" })).result.error?.code).toBe("invalid_args");
  });
});
