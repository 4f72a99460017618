import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executeTool } from "../../framework/execute";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";
import { editTool } from ".";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({
    "src/app.ts": "export function main() {\n  start(1);\n  stop();\n}\n",
    "crlf.txt": "\uFEFFalpha\r\nbeta\r\ngamma\r\n",
    "twice.txt": "ping();\nping();\n",
  });
});
afterEach(() => ws.cleanup());

const edit = (args: Record<string, unknown>) => executeTool(editTool, args, ws.context());
const read = (file: string) => ws.call("read", { path: file });
const onDisk = (file: string) => readFileSync(path.join(ws.root, file), "utf8");

describe("edit", () => {
  it("replaces the text in a file read before and shows the change as a diff", async () => {
    await read("src/app.ts");
    const { result, output } = await edit({
      path: "src/app.ts",
      old_string: "start(1);",
      new_string: "start(2);",
    });
    expect(result).toMatchObject({ ok: true, path: "src/app.ts", replacements: 1, strategy: "exact" });
    expect(result.diff).toContain("-  start(1);\n+  start(2);");
    expect(onDisk("src/app.ts")).toContain("  start(2);\n");
    expect(output).toMatch(/^Edited src\/app\.ts \(1 replacement, \+1 -1\)\n--- a\/src\/app\.ts/);
  });

  it("allows a second edit without reading again, since the first edit is remembered", async () => {
    await read("src/app.ts");
    await edit({ path: "src/app.ts", old_string: "start(1);", new_string: "start(2);" });
    const { result } = await edit({ path: "src/app.ts", old_string: "stop();", new_string: "halt();" });
    expect(result.ok).toBe(true);
  });

  it("names the loose strategy that matched and keeps the file's indentation", async () => {
    await read("src/app.ts");
    const { result, output } = await edit({
      path: "src/app.ts",
      old_string: "start(1);\nstop();",
      new_string: "run();",
    });
    expect(result).toMatchObject({ ok: true, strategy: "line-trimmed" });
    expect(onDisk("src/app.ts")).toBe("export function main() {\n  run();\n}\n");
    expect(output).toContain("matched by line-trimmed");
  });

  it("keeps CRLF line endings and the BOM whatever line endings old and new strings use", async () => {
    await read("crlf.txt");
    await edit({ path: "crlf.txt", old_string: "alpha\nbeta", new_string: "one\ntwo" });
    expect(onDisk("crlf.txt")).toBe("\uFEFFone\r\ntwo\r\ngamma\r\n");
    await edit({ path: "crlf.txt", old_string: "two\r\ngamma", new_string: "three\r\nfour\nfive" });
    expect(onDisk("crlf.txt")).toBe("\uFEFFone\r\nthree\r\nfour\r\nfive\r\n");
  });

  it("refuses to edit a file the session has not read", async () => {
    const { result } = await edit({ path: "src/app.ts", old_string: "stop();", new_string: "halt();" });
    expect(result).toMatchObject({ ok: false, error: { code: "stale_file" } });
    expect(onDisk("src/app.ts")).toContain("stop();");
  });

  it("applies the edit to the file as it is now when someone changed other lines since it was read", async () => {
    await read("src/app.ts");
    // A person types on the lines before and after the one the agent changes.
    writeFileSync(
      path.join(ws.root, "src/app.ts"),
      "export function main(typed) {\n  start(1);\n  stop(now);\n}\n",
    );
    const { result } = await edit({ path: "src/app.ts", old_string: "start(1);", new_string: "start(3);" });
    expect(result).toMatchObject({ ok: true, additions: 1, deletions: 1 });
    expect(result.diff).toContain("-  start(1);\n+  start(3);");
    expect(onDisk("src/app.ts")).toBe("export function main(typed) {\n  start(3);\n  stop(now);\n}\n");
    // And again: the session's knowledge of the file is what it read plus its own edit.
    writeFileSync(
      path.join(ws.root, "src/app.ts"),
      "export function main(typed more) {\n  start(3);\n  stop(now);\n}\n",
    );
    expect((await edit({ path: "src/app.ts", old_string: "}", new_string: "} // end" })).result.ok).toBe(
      true,
    );
    expect(onDisk("src/app.ts")).toBe(
      "export function main(typed more) {\n  start(3);\n  stop(now);\n} // end\n",
    );
  });

  it("refuses an edit of lines someone changed since they were read, quoting them as they are now", async () => {
    await read("src/app.ts");
    writeFileSync(path.join(ws.root, "src/app.ts"), "export function main() {\n  start(10);\n  stop();\n}\n");
    const { result, output } = await edit({
      path: "src/app.ts",
      old_string: "start(1);",
      new_string: "start(3);",
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "stale_file" },
      regions: [{ start_line: 2, text: "  start(10);" }],
    });
    expect(output).toContain("     2\t  start(10);");
    expect(onDisk("src/app.ts")).toContain("start(10);");
    // The model copies the quoted text: that applies at once, without another read.
    const retry = await edit({ path: "src/app.ts", old_string: "start(10);", new_string: "start(3);" });
    expect(retry.result.ok).toBe(true);
    expect(onDisk("src/app.ts")).toBe("export function main() {\n  start(3);\n  stop();\n}\n");
  });

  it("judges old_string against the text it read: one that became ambiguous or moved is not guessed", async () => {
    await read("src/app.ts");
    // Someone changed the line the agent means, and the same text now appears elsewhere.
    writeFileSync(
      path.join(ws.root, "src/app.ts"),
      "export function main() {\n  start(2);\n  stop();\n}\n  start(1);\n",
    );
    const { result } = await edit({ path: "src/app.ts", old_string: "start(1);", new_string: "start(3);" });
    expect(result).toMatchObject({ ok: false, error: { code: "stale_file" } });
    expect(onDisk("src/app.ts")).toContain("  start(1);\n");
  });

  it("still refuses a file changed since it was read when it was too large to keep its text", async () => {
    await read("src/app.ts");
    const file = path.join(ws.root, "src/app.ts");
    const record = ws.session.files.get(file);
    delete record?.text;
    writeFileSync(file, "export function main() {\n  start(1);\n  stop(now);\n}\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const { result } = await edit({ path: "src/app.ts", old_string: "start(1);", new_string: "start(3);" });
    expect(result).toMatchObject({ ok: false, error: { code: "stale_file" } });
    expect(onDisk("src/app.ts")).toContain("start(1);");
  });

  it("reports a conflict and changes nothing when old_string matches twice", async () => {
    await read("twice.txt");
    const { result } = await edit({ path: "twice.txt", old_string: "ping();", new_string: "pong();" });
    expect(result).toMatchObject({ ok: false, error: { code: "conflict" }, lines: [1, 2] });
    expect(onDisk("twice.txt")).toBe("ping();\nping();\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    await read("twice.txt");
    const { result } = await edit({
      path: "twice.txt",
      old_string: "ping();",
      new_string: "pong();",
      replace_all: true,
    });
    expect(result).toMatchObject({ ok: true, replacements: 2 });
    expect(onDisk("twice.txt")).toBe("pong();\npong();\n");
  });

  it("quotes the closest text of the file, with line numbers, when old_string is not there", async () => {
    await read("src/app.ts");
    const { result, output } = await edit({
      path: "src/app.ts",
      old_string: "start(9);\nstop();\n}",
      new_string: "x",
    });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" }, closest: { start_line: 2 } });
    expect(output).toContain("Hint: the closest text in the file");
    expect(output).toContain("\n     2\t  start(1);\n     3\t  stop();");
  });

  it("quotes the whole block between matching first and last lines, numbered, in the hint when the middle differs", async () => {
    const lines = ["import os", "", "def compute(a, b):", "    total = 0", "    for n in (a, b):"];
    lines.push("        total += n", "    if total > 10:", "        total = 10", "    return total", "");
    ws.write("calc.py", lines.join("\n"));
    await read("calc.py");
    const { result, output } = await edit({
      path: "calc.py",
      old_string: "def compute(a, b):\n    return a + b\n    return total\n",
      new_string: "def compute(a, b):\n    return a * b\n",
    });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
    const quoted = [3, 4, 5, 6, 7, 8, 9].map((n) => `${String(n).padStart(6)}\t${lines[n - 1]}`).join("\n");
    expect(result.error?.hint).toContain(quoted);
    expect(output).toContain(quoted);
    expect(onDisk("calc.py")).toBe(lines.join("\n"));
  });

  it("keeps the quoted closest text short when the file's lines are huge", async () => {
    const huge = "x".repeat(200_000);
    ws.write("min.js", `function a() {\n${huge}\n${huge}\n}\nfunction b() {}\n`);
    await read("min.js");
    const { result } = await edit({
      path: "min.js",
      old_string: `function a() {\n${"y".repeat(100)}\n}`,
      new_string: "function a() {}",
    });
    expect(result.error?.hint).toContain("     1\tfunction a() {");
    expect(result.error?.hint?.length).toBeLessThan(10_000);
  });

  it("refuses an edit that changes nothing", async () => {
    const { result } = await edit({ path: "src/app.ts", old_string: "stop();", new_string: "stop();" });
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("creates a missing file, with its folders, from an empty old_string", async () => {
    const { result } = await edit({
      path: "new/dir/file.txt",
      old_string: "",
      new_string: "hello\r\nworld\n",
    });
    expect(result).toMatchObject({ ok: true, path: "new/dir/file.txt", strategy: "created" });
    expect(onDisk("new/dir/file.txt")).toBe("hello\nworld\n");
    const again = await edit({ path: "new/dir/file.txt", old_string: "hello", new_string: "hi" });
    expect(again.result.ok).toBe(true);
  });

  it("fills an empty file from an empty old_string but refuses one that has content", async () => {
    ws.write("empty.txt", "");
    await read("empty.txt");
    expect((await edit({ path: "empty.txt", old_string: "", new_string: "x\n" })).result.ok).toBe(true);
    expect(onDisk("empty.txt")).toBe("x\n");
    await read("src/app.ts");
    const { result } = await edit({ path: "src/app.ts", old_string: "", new_string: "x" });
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("says a missing file does not exist", async () => {
    const { result } = await edit({ path: "nope.txt", old_string: "a", new_string: "b" });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(existsSync(path.join(ws.root, "nope.txt"))).toBe(false);
  });

  it("refuses a folder and a binary file", async () => {
    mkdirSync(path.join(ws.root, "folder"));
    expect((await edit({ path: "folder", old_string: "a", new_string: "b" })).result.error?.code).toBe(
      "is_directory",
    );
    ws.write("blob.bin", Buffer.from([1, 0, 2, 3]));
    await read("blob.bin");
    expect((await edit({ path: "blob.bin", old_string: "a", new_string: "b" })).result.error?.code).toBe(
      "binary_file",
    );
  });

  it("asks for the edit permission on the file's path", () => {
    expect(editTool.approval?.({ path: "src/app.ts", old_string: "a", new_string: "b" })).toEqual({
      permission: "edit",
      patterns: ["src/app.ts"],
      title: "Edit src/app.ts",
    });
  });
});

describe("edit outside the workspace", () => {
  beforeEach(() => {
    writeFileSync(path.join(ws.outside, "secret.txt"), "secret\n");
    symlinkSync(ws.outside, path.join(ws.root, "dir-link"));
    symlinkSync(path.join(ws.outside, "secret.txt"), path.join(ws.root, "file-link.txt"));
  });

  it.each([
    ["a relative path climbing out with ..", () => "../outside/secret.txt"],
    ["an absolute path outside", () => path.join(ws.outside, "secret.txt")],
    ["a path through a symlinked folder that leads outside", () => "dir-link/secret.txt"],
    ["a symlinked file that leads outside", () => "file-link.txt"],
  ])("refuses %s with permission_denied", async (_form, target) => {
    const { result } = await edit({ path: target(), old_string: "secret", new_string: "pwned" });
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(readFileSync(path.join(ws.outside, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("refuses to create a file outside with an empty old_string", async () => {
    const { result } = await edit({ path: "../outside/new.txt", old_string: "", new_string: "x" });
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(existsSync(path.join(ws.outside, "new.txt"))).toBe(false);
  });
});
