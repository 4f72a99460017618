import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MAX_GIT_INDEX_TEXT_BYTES } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let d: TestDaemon;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: d.root,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  }).toString();
const write = (name: string, content: string | Buffer) => writeFileSync(path.join(d.root, name), content);
const author = { name: "Ada Lovelace", email: "ada@example.test" };

beforeEach(async () => {
  d = await startTestDaemon();
});
afterEach(async () => {
  await d.stop();
});

describe("git.indexText", () => {
  it("answers a file outside any repository as such, without an error", async () => {
    write("a.txt", "a\n");
    expect(await d.request("git.indexText", { path: "a.txt" })).toEqual({ state: "outside" });
  });

  it("answers the staged version of a file, not the committed one nor the disk's", async () => {
    git("init", "--quiet", "--initial-branch=main");
    write("a.txt", "committed\n");
    await d.request("git.stage", { paths: ["a.txt"] });
    await d.request("git.commit", { message: "first", author });
    expect(await d.request("git.indexText", { path: "./a.txt" })).toEqual({
      state: "tracked",
      text: "committed\n",
    });
    write("a.txt", "staged\n");
    await d.request("git.stage", { paths: ["a.txt"] });
    write("a.txt", "typed since\n");
    expect(await d.request("git.indexText", { path: "a.txt" })).toEqual({
      state: "tracked",
      text: "staged\n",
    });
  });

  it("says why a file has no index text: untracked, a folder, a link, binary, too large", async () => {
    git("init", "--quiet", "--initial-branch=main");
    mkdirSync(path.join(d.root, "dir"));
    write("dir/inner.txt", "inner\n");
    symlinkSync("dir/inner.txt", path.join(d.root, "link"));
    write("binary.bin", Buffer.from([0x50, 0x4e, 0x47, 0, 1, 2]));
    write("large.txt", "x".repeat(MAX_GIT_INDEX_TEXT_BYTES + 1));
    await d.request("git.stage", { paths: ["dir", "link", "binary.bin", "large.txt"] });
    write("new.txt", "new\n");
    const state = async (file: string) => (await d.request("git.indexText", { path: file })).state;
    expect(await state("new.txt")).toBe("untracked");
    expect(await state("dir")).toBe("not_a_file");
    expect(await state("link")).toBe("not_a_file");
    expect(await state("binary.bin")).toBe("binary");
    expect(await state("large.txt")).toBe("too_large");
    expect(await state("dir/inner.txt")).toBe("tracked");
  });
});
