import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode, MAX_TREE_ENTRIES } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let daemon: TestDaemon;
const at = (p: string) => path.join(daemon.root, p);

beforeEach(async () => {
  daemon = await startTestDaemon();
});
afterEach(() => daemon.stop());

describe("fs.tree", () => {
  it("lists folders first, then files, each by name", async () => {
    await mkdir(at("zeta"));
    await mkdir(at("Alpha"));
    await writeFile(at("b.txt"), "b");
    await writeFile(at("a.txt"), "a");
    await writeFile(at("file10.txt"), "");
    await writeFile(at("file9.txt"), "");
    const { entries, truncated } = await daemon.request("fs.tree", { path: ".", depth: 1 });
    expect(entries.map((e) => e.name)).toEqual([
      "Alpha",
      "zeta",
      "a.txt",
      "b.txt",
      "file9.txt",
      "file10.txt",
    ]);
    expect(truncated).toBe(false);
    expect(entries[2]).toMatchObject({ path: "a.txt", isDir: false, isSymlink: false, size: 1 });
    expect(entries[0]?.children).toBeUndefined();
  });

  it("descends as deep as asked, with paths relative to the root", async () => {
    await mkdir(at("src/lib/deep"), { recursive: true });
    await writeFile(at("src/lib/x.ts"), "x");
    const { entries } = await daemon.request("fs.tree", { path: ".", depth: 2 });
    const src = entries.find((e) => e.name === "src");
    expect(src?.children?.map((c) => c.path)).toEqual(["src/lib"]);
    expect(src?.children?.[0]?.children).toBeUndefined();

    const deeper = await daemon.request("fs.tree", { path: "src", depth: 3 });
    expect(deeper.path).toBe("src");
    const lib = deeper.entries[0];
    expect(lib?.children?.map((c) => c.path)).toEqual(["src/lib/deep", "src/lib/x.ts"]);
    expect(lib?.children?.[0]?.children).toEqual([]);
  });

  it("shows .git but does not descend into it", async () => {
    await mkdir(at(".git/objects"), { recursive: true });
    await mkdir(at("src"));
    const { entries } = await daemon.request("fs.tree", { path: ".", depth: 3 });
    const git = entries.find((e) => e.name === ".git");
    expect(git?.isDir).toBe(true);
    expect(git?.children).toBeUndefined();
    expect(entries.find((e) => e.name === "src")?.children).toEqual([]);
  });

  it("marks symlinks, counts one to a folder inside as a folder, and does not descend into it", async () => {
    await mkdir(at("real"));
    await writeFile(at("real/f.txt"), "");
    await symlink("real", at("link"));
    await symlink("/etc", at("outside"));
    await symlink("missing", at("broken"));
    const { entries } = await daemon.request("fs.tree", { path: ".", depth: 2 });
    const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
    expect(byName.link).toMatchObject({ isDir: true, isSymlink: true });
    expect(byName.link?.children).toBeUndefined();
    expect(byName.outside).toMatchObject({ isDir: false, isSymlink: true });
    expect(byName.broken).toMatchObject({ isDir: false, isSymlink: true });
  });

  it("caps a huge folder and says the answer is truncated", async () => {
    await mkdir(at("big"));
    // In slices: tens of thousands of files opened at once would run out of descriptors.
    for (let start = 0; start < MAX_TREE_ENTRIES + 5; start += 1000) {
      const slice = Array.from({ length: Math.min(1000, MAX_TREE_ENTRIES + 5 - start) }, (_, i) => start + i);
      await Promise.all(slice.map((i) => writeFile(at(`big/f${i}`), "")));
    }
    const top = await daemon.request("fs.tree", { path: "big", depth: 1 });
    expect(top.entries).toHaveLength(MAX_TREE_ENTRIES);
    expect([top.entries[0]?.name, top.entries.at(-1)?.name]).toEqual(["f0", `f${MAX_TREE_ENTRIES - 1}`]);
    expect(top.truncated).toBe(true);

    const fromRoot = await daemon.request("fs.tree", { path: ".", depth: 2 });
    expect(fromRoot.truncated).toBe(true);
    expect(fromRoot.entries.find((e) => e.name === "big")?.children).toBeUndefined();
  });

  it("fails with NotFound for a missing folder and NotDirectory for a file", async () => {
    await writeFile(at("a.txt"), "");
    const missing = await daemon.failure("fs.tree", { path: "nope", depth: 1 });
    expect(missing.code).toBe(DaemonErrorCode.NotFound);
    expect(missing.message).toBe("nope does not exist");
    const file = await daemon.failure("fs.tree", { path: "a.txt", depth: 1 });
    expect(file.code).toBe(DaemonErrorCode.NotDirectory);
  });

  it("rejects a depth out of range as invalid params", async () => {
    const error = await daemon.failure("fs.tree", { path: ".", depth: 99 });
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/depth/);
  });
});
