import { mkdir, symlink, writeFile } from "node:fs/promises";
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

describe("fs.stat", () => {
  it("describes a file with the same version fs.read reports", async () => {
    await writeFile(at("a.txt"), "hello");
    const stat = await daemon.request("fs.stat", { path: "a.txt" });
    const read = await daemon.request("fs.read", { path: "a.txt", maxBytes: 100 });
    expect(stat).toMatchObject({ path: "a.txt", isDir: false, isSymlink: false, size: 5 });
    expect(stat.version).toBe(read.version);
    expect(stat.mtimeMs).toBe(read.mtimeMs);
  });

  it("describes a folder and the root", async () => {
    await mkdir(at("src"));
    expect(await daemon.request("fs.stat", { path: "src" })).toMatchObject({ path: "src", isDir: true });
    expect(await daemon.request("fs.stat", { path: "." })).toMatchObject({ path: ".", isDir: true });
  });

  it("reports a symlink inside as a symlink to what it points at", async () => {
    await mkdir(at("real"));
    await symlink("real", at("link"));
    expect(await daemon.request("fs.stat", { path: "link" })).toMatchObject({ isDir: true, isSymlink: true });
  });

  it("fails with NotFound for a missing path", async () => {
    const error = await daemon.failure("fs.stat", { path: "missing.txt" });
    expect(error.code).toBe(DaemonErrorCode.NotFound);
    expect(error.message).toBe("missing.txt does not exist");
  });
});
