import { createHash } from "node:crypto";
import { chmod, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
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

describe("fs.write", () => {
  it("creates a file, with its parent folders, and reports its version", async () => {
    const result = await daemon.request("fs.write", { path: "src/new/a.txt", content: "hello" });
    expect(await readFile(at("src/new/a.txt"), "utf8")).toBe("hello");
    expect(result).toMatchObject({ path: "src/new/a.txt", size: 5 });
    const read = await daemon.request("fs.read", { path: "src/new/a.txt", maxBytes: 100 });
    expect(read.version).toBe(result.version);
  });

  it("replaces a file and leaves no temporary file behind", async () => {
    await writeFile(at("a.txt"), "old");
    await daemon.request("fs.write", { path: "a.txt", content: "new" });
    expect(await readFile(at("a.txt"), "utf8")).toBe("new");
    expect(await readdir(daemon.root)).toEqual(["a.txt"]);
  });

  it("keeps the mode of the file it replaces", async () => {
    await writeFile(at("run.sh"), "#!/bin/sh\n");
    await chmod(at("run.sh"), 0o751);
    await daemon.request("fs.write", { path: "run.sh", content: "#!/bin/sh\necho hi\n" });
    expect((await stat(at("run.sh"))).mode & 0o777).toBe(0o751);
  });

  it("saves when expectedVersion matches the file on disk", async () => {
    await writeFile(at("a.txt"), "one");
    const { version } = await daemon.request("fs.read", { path: "a.txt", maxBytes: 100 });
    const result = await daemon.request("fs.write", {
      path: "a.txt",
      content: "two",
      expectedVersion: version,
    });
    expect(result.version).not.toBe(version);
    expect(await readFile(at("a.txt"), "utf8")).toBe("two");
  });

  it("refuses with Conflict when the file changed since it was read, and keeps the newer content", async () => {
    await writeFile(at("a.txt"), "one");
    const { version } = await daemon.request("fs.read", { path: "a.txt", maxBytes: 100 });
    await writeFile(at("a.txt"), "changed elsewhere");
    const error = await daemon.failure("fs.write", {
      path: "a.txt",
      content: "mine",
      expectedVersion: version,
    });
    expect(error.code).toBe(DaemonErrorCode.Conflict);
    expect(error.message).toMatch(/a\.txt changed after it was read/);
    expect(await readFile(at("a.txt"), "utf8")).toBe("changed elsewhere");
  });

  it("with expectedHash, refuses a file changed to other bytes of the same size and time", async () => {
    await writeFile(at("a.txt"), "line 11\n");
    const expectedHash = createHash("sha256").update("line 11\n").digest("base64url");
    const before = await stat(at("a.txt"));
    // A shell rewrote the line within the clock's resolution: the version alone cannot tell.
    await writeFile(at("a.txt"), "LINE 11\n");
    await utimes(at("a.txt"), before.atime, before.mtime);
    const error = await daemon.failure("fs.write", { path: "a.txt", content: "typed\n", expectedHash });
    expect(error.code).toBe(DaemonErrorCode.Conflict);
    expect(await readFile(at("a.txt"), "utf8")).toBe("LINE 11\n");
    await writeFile(at("a.txt"), "line 11\n");
    await daemon.request("fs.write", { path: "a.txt", content: "typed\n", expectedHash });
    expect(await readFile(at("a.txt"), "utf8")).toBe("typed\n");
  });

  it("refuses with Conflict when the file was deleted since it was read", async () => {
    const error = await daemon.failure("fs.write", {
      path: "gone.txt",
      content: "x",
      expectedVersion: "1-1",
    });
    expect(error.code).toBe(DaemonErrorCode.Conflict);
    expect(error.message).toMatch(/deleted/);
  });

  it("refuses to write over a folder", async () => {
    await mkdir(at("src"));
    const error = await daemon.failure("fs.write", { path: "src", content: "x" });
    expect(error.code).toBe(DaemonErrorCode.IsDirectory);
  });

  it("refuses to write through a symlink, even one pointing inside", async () => {
    await writeFile(at("real.txt"), "real");
    await symlink("real.txt", at("alias.txt"));
    const error = await daemon.failure("fs.write", { path: "alias.txt", content: "x" });
    expect(error.code).toBe(DaemonErrorCode.PathDenied);
    expect(await readFile(at("real.txt"), "utf8")).toBe("real");
  });

  it("fails with NotDirectory when a parent is a file", async () => {
    await writeFile(at("a.txt"), "");
    const error = await daemon.failure("fs.write", { path: "a.txt/b.txt", content: "x" });
    expect(error.code).toBe(DaemonErrorCode.NotDirectory);
  });
});
