import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let daemon: TestDaemon;
let outside: string;

beforeEach(async () => {
  daemon = await startTestDaemon();
  outside = await mkdtemp(path.join(os.tmpdir(), "coder-outside-"));
  await writeFile(path.join(outside, "secret.txt"), "secret");
  await symlink(outside, path.join(daemon.root, "out-dir"));
  await symlink(path.join(outside, "secret.txt"), path.join(daemon.root, "out-file"));
});

afterEach(async () => {
  await daemon.stop();
  await rm(outside, { recursive: true, force: true });
});

describe("paths that leave the workspace are refused with PathDenied", () => {
  const escapes = [
    ["a .. path", "../secret.txt"],
    ["a .. path hidden in the middle", "src/../../secret.txt"],
    ["an absolute path outside", "/etc/passwd"],
    ["a symlink to an outside file", "out-file"],
    ["a path through a symlink to an outside folder", "out-dir/secret.txt"],
  ] as const;

  for (const [name, p] of escapes) {
    it(`fs.read of ${name}`, async () => {
      const error = await daemon.failure("fs.read", { path: p, maxBytes: 1000 });
      expect(error.code).toBe(DaemonErrorCode.PathDenied);
      expect(error.message).toMatch(/outside the workspace/);
    });

    it(`fs.write to ${name}`, async () => {
      const error = await daemon.failure("fs.write", { path: p, content: "pwned" });
      expect(error.code).toBe(DaemonErrorCode.PathDenied);
    });
  }

  it("fs.write does not change the outside file behind a symlink", async () => {
    await daemon.failure("fs.write", { path: "out-file", content: "pwned" });
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret");
  });

  it("fs.tree, fs.stat, fs.mkdir and fs.delete refuse an outside path", async () => {
    for (const [method, params] of [
      ["fs.tree", { path: "out-dir", depth: 1 }],
      ["fs.stat", { path: "../" }],
      ["fs.mkdir", { path: "out-dir/new" }],
      ["fs.delete", { path: "out-dir/secret.txt" }],
      ["fs.delete", { path: "../x" }],
    ] as const) {
      const error = await daemon.failure(method, params);
      expect(error.code, `${method} ${JSON.stringify(params)}`).toBe(DaemonErrorCode.PathDenied);
    }
  });

  it("fs.rename refuses a target outside, through .. or a symlinked folder", async () => {
    await writeFile(path.join(daemon.root, "a.txt"), "a");
    for (const to of ["../a.txt", "out-dir/a.txt", path.join(outside, "a.txt")]) {
      const error = await daemon.failure("fs.rename", { from: "a.txt", to });
      expect(error.code, to).toBe(DaemonErrorCode.PathDenied);
    }
    expect(await readFile(path.join(daemon.root, "a.txt"), "utf8")).toBe("a");
  });

  it("fs.rename refuses a source outside", async () => {
    const error = await daemon.failure("fs.rename", { from: "out-dir/secret.txt", to: "stolen.txt" });
    expect(error.code).toBe(DaemonErrorCode.PathDenied);
  });
});

describe("paths inside the workspace", () => {
  it("accepts an absolute path inside the workspace and answers with the relative path", async () => {
    await mkdir(path.join(daemon.root, "src"));
    await writeFile(path.join(daemon.root, "src", "a.txt"), "hello");
    const result = await daemon.request("fs.read", {
      path: path.join(daemon.root, "src/a.txt"),
      maxBytes: 100,
    });
    expect(result.path).toBe("src/a.txt");
    expect(result.content).toBe("hello");
  });

  it("follows a symlink that stays inside", async () => {
    await writeFile(path.join(daemon.root, "real.txt"), "real");
    await symlink("real.txt", path.join(daemon.root, "alias.txt"));
    const result = await daemon.request("fs.read", { path: "alias.txt", maxBytes: 100 });
    expect(result).toMatchObject({ path: "alias.txt", content: "real" });
  });

  it("refuses a path with a NUL byte as invalid params", async () => {
    const error = await daemon.failure("fs.read", { path: "a\0b", maxBytes: 1 });
    expect(error.code).toBe(-32602);
  });
});
