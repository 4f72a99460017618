import { mkdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
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

describe("fs.rename", () => {
  it("renames a file", async () => {
    await writeFile(at("a.txt"), "a");
    expect(await daemon.request("fs.rename", { from: "a.txt", to: "b.txt" })).toEqual({
      from: "a.txt",
      to: "b.txt",
    });
    expect(await readFile(at("b.txt"), "utf8")).toBe("a");
  });

  it("moves a folder into a new folder", async () => {
    await mkdir(at("src"));
    await writeFile(at("src/x.ts"), "x");
    await daemon.request("fs.rename", { from: "src", to: "lib/src" });
    expect(await readFile(at("lib/src/x.ts"), "utf8")).toBe("x");
  });

  it("moves a symlink as a link, even one that points outside", async () => {
    await symlink("/etc", at("etc-link"));
    await daemon.request("fs.rename", { from: "etc-link", to: "moved-link" });
    expect(await readlink(at("moved-link"))).toBe("/etc");
  });

  it("refuses to overwrite an existing target", async () => {
    await writeFile(at("a.txt"), "a");
    await writeFile(at("b.txt"), "b");
    const error = await daemon.failure("fs.rename", { from: "a.txt", to: "b.txt" });
    expect([error.code, error.message]).toEqual([DaemonErrorCode.Exists, "b.txt already exists"]);
    expect(await readFile(at("b.txt"), "utf8")).toBe("b");
  });

  it("fails with NotFound for a missing source", async () => {
    const error = await daemon.failure("fs.rename", { from: "nope", to: "b" });
    expect([error.code, error.message]).toEqual([DaemonErrorCode.NotFound, "nope does not exist"]);
  });

  it("refuses to move a folder into itself or to rename the root", async () => {
    await mkdir(at("src"));
    expect((await daemon.failure("fs.rename", { from: "src", to: "src/inner" })).message).toMatch(
      /into itself/,
    );
    expect((await daemon.failure("fs.rename", { from: ".", to: "x" })).code).toBe(DaemonErrorCode.PathDenied);
  });
});
