import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashTree } from "./hash.mjs";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "coder-hash-"));
  await mkdir(path.join(dir, "bash-ls", "node_modules"), { recursive: true });
  await writeFile(path.join(dir, "Dockerfile"), "FROM debian\n");
  await writeFile(path.join(dir, "daemon.mjs"), "console.log(1);\n");
  await writeFile(path.join(dir, "bash-ls", "node_modules", "index.js"), "module.exports = 1;\n");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ENTRIES = ["Dockerfile", "daemon.mjs", "bash-ls"];

describe("hashTree", () => {
  it("gives the same hash for the same content", async () => {
    expect(await hashTree(dir, ENTRIES)).toBe(await hashTree(dir, [...ENTRIES].reverse()));
  });

  it("changes when a file's content changes", async () => {
    const before = await hashTree(dir, ENTRIES);
    await writeFile(path.join(dir, "daemon.mjs"), "console.log(2);\n");
    expect(await hashTree(dir, ENTRIES)).not.toBe(before);
  });

  it("changes when a nested file is added, renamed or made executable", async () => {
    const hashes = [await hashTree(dir, ENTRIES)];
    await writeFile(path.join(dir, "bash-ls", "node_modules", "extra.js"), "");
    hashes.push(await hashTree(dir, ENTRIES));
    await rm(path.join(dir, "bash-ls", "node_modules", "extra.js"));
    await writeFile(path.join(dir, "bash-ls", "node_modules", "other.js"), "");
    hashes.push(await hashTree(dir, ENTRIES));
    await chmod(path.join(dir, "bash-ls", "node_modules", "other.js"), 0o755);
    hashes.push(await hashTree(dir, ENTRIES));
    expect(new Set(hashes).size).toBe(4);
  });

  it("changes when a symlink points elsewhere", async () => {
    await symlink("index.js", path.join(dir, "bash-ls", "node_modules", "link"));
    const before = await hashTree(dir, ENTRIES);
    await rm(path.join(dir, "bash-ls", "node_modules", "link"));
    await symlink("other.js", path.join(dir, "bash-ls", "node_modules", "link"));
    expect(await hashTree(dir, ENTRIES)).not.toBe(before);
  });

  it("ignores files outside the listed entries and in ignored folders", async () => {
    const before = await hashTree(dir, ENTRIES, { ignore: ["node_modules"] });
    await writeFile(path.join(dir, "stray.txt"), "not part of the image");
    await writeFile(path.join(dir, "bash-ls", "node_modules", "index.js"), "changed");
    expect(await hashTree(dir, ENTRIES, { ignore: ["node_modules"] })).toBe(before);
  });

  it("changes with the extra inputs", async () => {
    const first = await hashTree(dir, ENTRIES, { extra: ["base sha256:aaa"] });
    expect(await hashTree(dir, ENTRIES, { extra: ["base sha256:bbb"] })).not.toBe(first);
  });
});
