import { stat, writeFile } from "node:fs/promises";
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

describe("fs.mkdir", () => {
  it("creates a folder with its missing parents", async () => {
    expect(await daemon.request("fs.mkdir", { path: "a/b/c" })).toEqual({ path: "a/b/c" });
    expect((await stat(at("a/b/c"))).isDirectory()).toBe(true);
  });

  it("refuses with Exists when the name is taken by a folder or a file", async () => {
    await daemon.request("fs.mkdir", { path: "src" });
    await writeFile(at("a.txt"), "");
    const folder = await daemon.failure("fs.mkdir", { path: "src" });
    expect([folder.code, folder.message]).toEqual([DaemonErrorCode.Exists, "src already exists"]);
    expect((await daemon.failure("fs.mkdir", { path: "a.txt" })).code).toBe(DaemonErrorCode.Exists);
  });
});
