import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../framework/types";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";
import { displayPath, resolveInWorkspace } from "./resolve";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({ "src/a.ts": "a\n" });
  writeFileSync(path.join(ws.outside, "secret.txt"), "secret\n");
});
afterEach(() => ws.cleanup());

async function refusal(input: string, options?: { forWrite?: boolean }): Promise<ToolError> {
  const error = await resolveInWorkspace(ws.root, input, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe("resolveInWorkspace", () => {
  it("resolves a relative path under the root", async () => {
    expect(await resolveInWorkspace(ws.root, "src/a.ts")).toBe(path.join(ws.root, "src/a.ts"));
  });

  it("accepts an absolute path inside the workspace", async () => {
    expect(await resolveInWorkspace(ws.root, path.join(ws.root, "src/a.ts"))).toBe(
      path.join(ws.root, "src/a.ts"),
    );
  });

  it("treats an empty path and '.' as the root", async () => {
    expect(await resolveInWorkspace(ws.root, "")).toBe(ws.root);
    expect(await resolveInWorkspace(ws.root, ".")).toBe(ws.root);
  });

  it("allows .. that stays inside the workspace", async () => {
    expect(await resolveInWorkspace(ws.root, "src/../src/a.ts")).toBe(path.join(ws.root, "src/a.ts"));
  });

  it("refuses .. that climbs out of the workspace", async () => {
    expect((await refusal("../outside/secret.txt")).code).toBe("permission_denied");
    expect((await refusal("src/../../outside")).code).toBe("permission_denied");
  });

  it("refuses an absolute path outside the workspace", async () => {
    expect((await refusal("/etc/passwd")).code).toBe("permission_denied");
    expect((await refusal(path.join(ws.outside, "secret.txt"))).code).toBe("permission_denied");
  });

  it("refuses a sibling folder whose name starts like the root", async () => {
    mkdirSync(`${ws.root}-other`);
    expect((await refusal(`${ws.root}-other`)).code).toBe("permission_denied");
  });

  it("refuses a symlinked folder that leads outside, and paths below it", async () => {
    symlinkSync(ws.outside, path.join(ws.root, "escape"));
    expect((await refusal("escape")).code).toBe("permission_denied");
    expect((await refusal("escape/secret.txt")).code).toBe("permission_denied");
    expect((await refusal("escape/new/file.txt", { forWrite: true })).code).toBe("permission_denied");
  });

  it("refuses a symlinked file that leads outside", async () => {
    symlinkSync(path.join(ws.outside, "secret.txt"), path.join(ws.root, "secret-link"));
    expect((await refusal("secret-link")).code).toBe("permission_denied");
  });

  it("follows a symlink that stays inside for reading but not for writing", async () => {
    symlinkSync(path.join(ws.root, "src/a.ts"), path.join(ws.root, "alias.ts"));
    expect(await resolveInWorkspace(ws.root, "alias.ts")).toBe(path.join(ws.root, "src/a.ts"));
    const error = await refusal("alias.ts", { forWrite: true });
    expect(error.code).toBe("permission_denied");
    expect(error.message).toMatch(/symbolic link/);
  });

  it("refuses a dangling symlink whose missing target lies outside, even through a chain", async () => {
    symlinkSync(path.join(ws.outside, "made.txt"), path.join(ws.root, "ghost"));
    symlinkSync("ghost", path.join(ws.root, "ghost-of-ghost"));
    symlinkSync(path.join(ws.outside, "made"), path.join(ws.root, "ghost-dir"));
    expect((await refusal("ghost", { forWrite: true })).code).toBe("permission_denied");
    expect((await refusal("ghost-of-ghost", { forWrite: true })).code).toBe("permission_denied");
    expect((await refusal("ghost-dir/new.txt", { forWrite: true })).code).toBe("permission_denied");
    expect((await refusal("ghost")).message).toMatch(/outside the workspace/);
  });

  it("follows a dangling symlink that stays inside to its missing target, but never writes through it", async () => {
    symlinkSync("missing.txt", path.join(ws.root, "ghost"));
    symlinkSync(path.join(ws.root, "later"), path.join(ws.root, "ghost-dir"));
    expect(await resolveInWorkspace(ws.root, "ghost")).toBe(path.join(ws.root, "missing.txt"));
    expect(await resolveInWorkspace(ws.root, "ghost-dir/a.txt", { forWrite: true })).toBe(
      path.join(ws.root, "later/a.txt"),
    );
    expect((await refusal("ghost", { forWrite: true })).message).toMatch(/symbolic link/);
  });

  it("resolves paths that do not exist yet, however deep", async () => {
    expect(await resolveInWorkspace(ws.root, "new/deeper/file.txt", { forWrite: true })).toBe(
      path.join(ws.root, "new/deeper/file.txt"),
    );
  });

  it("accepts extra roots, such as the folder of spilled outputs", async () => {
    const secret = path.join(ws.outside, "secret.txt");
    expect(await resolveInWorkspace(ws.root, secret, { extraRoots: [ws.outside] })).toBe(secret);
  });

  it("refuses a NUL character as invalid arguments", async () => {
    expect((await refusal("a\0b")).code).toBe("invalid_args");
  });
});

describe("displayPath", () => {
  it("shows paths relative to the root with forward slashes, the root as '.'", () => {
    expect(displayPath(ws.root, path.join(ws.root, "src", "a.ts"))).toBe("src/a.ts");
    expect(displayPath(ws.root, ws.root)).toBe(".");
  });
});
