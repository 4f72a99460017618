import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({ "inside.txt": "inside\n" });
  writeFileSync(path.join(ws.outside, "secret.txt"), "secret\n");
  symlinkSync(ws.outside, path.join(ws.root, "dir-link"));
  symlinkSync(path.join(ws.outside, "secret.txt"), path.join(ws.root, "file-link.txt"));
});
afterEach(() => ws.cleanup());

/** Each way a path argument might leave the workspace, as a function of the outside folder. */
const escapes: [string, (outside: string) => string][] = [
  ["a relative path climbing out with ..", () => "../outside/secret.txt"],
  ["an absolute path outside", (outside) => path.join(outside, "secret.txt")],
  ["a path through a symlinked folder that leads outside", () => "dir-link/secret.txt"],
  ["a symlinked file that leads outside", () => "file-link.txt"],
  ["a symlinked folder that leads outside", () => "dir-link"],
];

/** Every path-taking tool, with the arguments that aim it at `target`. */
const tools: [string, (target: string) => Record<string, unknown>][] = [
  ["read", (target) => ({ path: target })],
  ["write", (target) => ({ path: target, content: "pwned" })],
  ["list", (target) => ({ path: target })],
  ["glob", (target) => ({ pattern: "*", path: target })],
  ["grep", (target) => ({ pattern: "secret", path: target })],
];

describe.each(tools)("%s", (tool, argsFor) => {
  it.each(escapes)("refuses %s with permission_denied", async (_form, target) => {
    const { result } = await ws.call(tool, argsFor(target(ws.outside)));
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(readFileSync(path.join(ws.outside, "secret.txt"), "utf8")).toBe("secret\n");
  });
});

describe("write through links", () => {
  it("refuses to write through a symlink even when it points inside", async () => {
    symlinkSync(path.join(ws.root, "inside.txt"), path.join(ws.root, "alias.txt"));
    await ws.call("read", { path: "alias.txt" });
    const { result } = await ws.call("write", { path: "alias.txt", content: "changed" });
    expect(result.error?.code).toBe("permission_denied");
    expect(readFileSync(path.join(ws.root, "inside.txt"), "utf8")).toBe("inside\n");
  });
});

/** Links that point at something outside that does not exist (yet): following them would create it. */
const danglingEscapes: [string, (outside: string) => { link: string; target: string }[], string][] = [
  [
    "a dangling symlinked file",
    (o) => [{ link: "ghost.txt", target: path.join(o, "made.txt") }],
    "ghost.txt",
  ],
  [
    "a dangling symlink given as a relative target",
    () => [{ link: "ghost.txt", target: "../outside/made.txt" }],
    "ghost.txt",
  ],
  [
    "a chain of dangling symlinks",
    (o) => [
      { link: "first.txt", target: "second.txt" },
      { link: "second.txt", target: path.join(o, "made.txt") },
    ],
    "first.txt",
  ],
  [
    "a dangling symlinked folder in the middle of the path",
    (o) => [{ link: "ghost-dir", target: path.join(o, "made") }],
    "ghost-dir/made.txt",
  ],
];

/** The writing tools, each aimed at creating `target` with some text. */
const writers: [string, (target: string) => Record<string, unknown>][] = [
  ["write", (target) => ({ path: target, content: "pwned" })],
  ["edit", (target) => ({ path: target, old_string: "", new_string: "pwned" })],
  ["patch", (target) => ({ patch: `--- /dev/null\n+++ b/${target}\n@@ -0,0 +1 @@\n+pwned\n` })],
  ["apply_patch", (target) => ({ patch: `*** Begin Patch\n*** Add File: ${target}\n+pwned\n*** End Patch` })],
];

describe.each(writers)("%s through a dangling link", (tool, argsFor) => {
  it.each(
    danglingEscapes,
  )("refuses %s that leads outside with permission_denied", async (_form, links, target) => {
    for (const { link, target: to } of links(ws.outside)) symlinkSync(to, path.join(ws.root, link));
    const { result } = await ws.call(tool, argsFor(target));
    expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    expect(readdirSync(ws.outside)).toEqual(["secret.txt"]);
  });
});

describe("the spill folder", () => {
  // A process in the workspace may plant the folder as a link before the first spill.
  it.each([
    ["the folder it leads to", () => ws.outside, () => path.join(ws.outside, "secret.txt")],
    ["a folder above it", () => path.dirname(ws.root), () => path.join(ws.spillDir, "outside/secret.txt")],
  ])("is no way out when a link replaced it, read through %s", async (_form, target, secret) => {
    symlinkSync(target(), ws.spillDir);
    for (const tool of ["read", "grep"]) {
      const { result } = await ws.call(tool, { path: secret(), pattern: "s" });
      expect(result).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    }
  });
});
