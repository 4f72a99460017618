import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let daemon: TestDaemon;
const at = (p: string) => path.join(daemon.root, p);

beforeEach(async () => {
  daemon = await startTestDaemon();
});
afterEach(() => daemon.stop());

describe("fs.delete", () => {
  it("deletes a file", async () => {
    await writeFile(at("a.txt"), "");
    expect(await daemon.request("fs.delete", { path: "a.txt" })).toEqual({ path: "a.txt" });
    expect(await readdir(daemon.root)).toEqual([]);
  });

  it("deletes a folder with everything in it", async () => {
    await mkdir(at("src/deep"), { recursive: true });
    await writeFile(at("src/deep/x.ts"), "");
    await daemon.request("fs.delete", { path: "src" });
    expect(await readdir(daemon.root)).toEqual([]);
  });

  it("deletes a symlink to an outside folder without touching that folder", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "coder-outside-"));
    try {
      await writeFile(path.join(outside, "keep.txt"), "");
      await symlink(outside, at("link"));
      await daemon.request("fs.delete", { path: "link" });
      expect(await readdir(daemon.root)).toEqual([]);
      expect(await readdir(outside)).toEqual(["keep.txt"]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("never deletes the workspace root", async () => {
    await writeFile(at("a.txt"), "");
    for (const p of [".", "src/..", daemon.root]) {
      const error = await daemon.failure("fs.delete", { path: p });
      expect(error.code, p).toBe(DaemonErrorCode.PathDenied);
    }
    expect(await readdir(daemon.root)).toEqual(["a.txt"]);
  });

  it("fails with NotFound for a missing path", async () => {
    const error = await daemon.failure("fs.delete", { path: "nope" });
    expect([error.code, error.message]).toEqual([DaemonErrorCode.NotFound, "nope does not exist"]);
  });
});
