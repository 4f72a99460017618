import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
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
