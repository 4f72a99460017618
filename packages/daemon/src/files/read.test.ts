import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
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

describe("fs.read", () => {
  it("returns a text file's content, size and version", async () => {
    await writeFile(at("a.txt"), "héllo\n");
    const result = await daemon.request("fs.read", { path: "a.txt", maxBytes: 1000 });
    expect(result).toMatchObject({ path: "a.txt", kind: "text", content: "héllo\n", size: 7 });
    expect(result.version).toMatch(/^\d+-7$/);
  });

  it("keeps a byte order mark so that saving writes the same bytes", async () => {
    await writeFile(at("bom.txt"), "\uFEFFtext");
    const result = await daemon.request("fs.read", { path: "bom.txt", maxBytes: 1000 });
    expect(result.content).toBe("\uFEFFtext");
  });

  it("reports a file with NUL bytes as binary, without content", async () => {
    await writeFile(at("a.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const result = await daemon.request("fs.read", { path: "a.bin", maxBytes: 1000 });
    expect(result).toMatchObject({ kind: "binary", content: "", size: 6 });
  });

  it("reports invalid UTF-8 as binary", async () => {
    await writeFile(at("latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const result = await daemon.request("fs.read", { path: "latin1.txt", maxBytes: 1000 });
    expect(result.kind).toBe("binary");
  });

  it("reports a file above maxBytes as too_large, with its size and version", async () => {
    await writeFile(at("big.txt"), "x".repeat(2000));
    const result = await daemon.request("fs.read", { path: "big.txt", maxBytes: 1000 });
    expect(result).toMatchObject({ kind: "too_large", content: "", size: 2000 });
    expect(result.version).toMatch(/-2000$/);
  });

  it("reads an empty file as empty text", async () => {
    await writeFile(at("empty"), "");
    const result = await daemon.request("fs.read", { path: "empty", maxBytes: 0 });
    expect(result).toMatchObject({ kind: "text", content: "" });
  });

  it("fails with NotFound, IsDirectory, or Io for something that is not a regular file", async () => {
    await mkdir(at("src"));
    execFileSync("mkfifo", [at("pipe")]);
    const missing = await daemon.failure("fs.read", { path: "nope.txt", maxBytes: 10 });
    expect([missing.code, missing.message]).toEqual([DaemonErrorCode.NotFound, "nope.txt does not exist"]);
    const folder = await daemon.failure("fs.read", { path: "src", maxBytes: 10 });
    expect([folder.code, folder.message]).toEqual([DaemonErrorCode.IsDirectory, "src is a folder"]);
    const pipe = await daemon.failure("fs.read", { path: "pipe", maxBytes: 10 });
    expect([pipe.code, pipe.message]).toEqual([DaemonErrorCode.Io, "pipe is not a regular file"]);
  });

  it("rejects a missing or negative maxBytes as invalid params", async () => {
    expect((await daemon.failure("fs.read", { path: "a" })).code).toBe(-32602);
    expect((await daemon.failure("fs.read", { path: "a", maxBytes: -1 })).code).toBe(-32602);
  });
});
