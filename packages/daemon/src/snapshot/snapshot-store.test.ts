import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SNAPSHOT_FILE_BYTES } from "./large-files";
import { SnapshotStore } from "./snapshot-store";

let root: string;
let gitDir: string;
let store: SnapshotStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "coder-snap-"));
  gitDir = `${root}-store.git`;
  store = new SnapshotStore({ gitDir, workTree: root });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(gitDir, { recursive: true, force: true });
});

const write = (file: string, content: string | Buffer) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
};
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const exists = (file: string) => existsSync(path.join(root, file));

/** A turn: the files before, what the agent did, and the files after. */
async function turn(change: () => void): Promise<{ before: string; after: string }> {
  const before = await store.take();
  change();
  const after = await store.take();
  return { before, after };
}

describe("snapshots", () => {
  beforeEach(() => {
    write("keep.txt", "unchanged\n");
    write("src/edit.ts", "export const a = 1;\n");
    write("src/gone.ts", "old\n");
  });

  it("keep the store outside the workspace", async () => {
    await store.take();
    expect(existsSync(path.join(gitDir, "HEAD"))).toBe(true);
    expect(exists(".git")).toBe(false);
  });

  it("list what a turn changed, with line counts and a unified diff", async () => {
    const { before, after } = await turn(() => {
      write("src/edit.ts", "export const a = 2;\nexport const b = 3;\n");
      write("src/new.ts", "new\n");
      rm(path.join(root, "src/gone.ts"), { force: true });
    });
    const diff = await store.diff(before, after);
    expect(diff.files).toEqual([
      { path: "src/edit.ts", status: "modified", additions: 2, deletions: 1, binary: false },
      { path: "src/gone.ts", status: "deleted", additions: 0, deletions: 1, binary: false },
      { path: "src/new.ts", status: "added", additions: 1, deletions: 0, binary: false },
    ]);
    expect(diff.patch).toContain("+export const b = 3;");
    expect(diff.patch).toContain("diff --git a/src/gone.ts b/src/gone.ts");
    expect(diff.truncated).toBe(false);
  });

  it("diff against the current files when no second snapshot is given", async () => {
    const before = await store.take();
    write("keep.txt", "edited by hand\n");
    const diff = await store.diff(before);
    expect(diff.files.map((f) => f.path)).toEqual(["keep.txt"]);
  });

  it("revert a turn: changed files get their content back, deleted ones return, created ones go", async () => {
    const { before, after } = await turn(() => {
      write("src/edit.ts", "export const a = 2;\n");
      write("src/deep/new.ts", "new\n");
      rm(path.join(root, "src/gone.ts"), { force: true });
    });
    const result = await store.restore(before, after);
    expect(read("src/edit.ts")).toBe("export const a = 1;\n");
    expect(read("src/gone.ts")).toBe("old\n");
    expect(exists("src/deep/new.ts")).toBe(false);
    expect(exists("src/deep")).toBe(false);
    expect(result.removed).toEqual(["src/deep/new.ts"]);
    expect(result.restored.sort()).toEqual(["src/edit.ts", "src/gone.ts"]);
  });

  it("leave a file the person edited after the turn alone when reverting", async () => {
    const { before, after } = await turn(() => write("src/edit.ts", "export const a = 2;\n"));
    write("keep.txt", "the person's own edit\n");
    await store.restore(before, after);
    expect(read("keep.txt")).toBe("the person's own edit\n");
    expect(read("src/edit.ts")).toBe("export const a = 1;\n");
  });

  it("undo a revert: the turn's changes come back", async () => {
    const { before, after } = await turn(() => {
      write("src/edit.ts", "export const a = 2;\n");
      write("src/new.ts", "new\n");
      rm(path.join(root, "src/gone.ts"), { force: true });
    });
    await store.restore(before, after);
    await store.restore(after, before);
    expect(read("src/edit.ts")).toBe("export const a = 2;\n");
    expect(read("src/new.ts")).toBe("new\n");
    expect(exists("src/gone.ts")).toBe(false);
  });

  it("restore only the paths asked for", async () => {
    const { before, after } = await turn(() => {
      write("src/edit.ts", "export const a = 2;\n");
      write("keep.txt", "changed\n");
    });
    await store.restore(before, after, ["src"]);
    expect(read("src/edit.ts")).toBe("export const a = 1;\n");
    expect(read("keep.txt")).toBe("changed\n");
  });

  it("leave out .gitignore'd files and the workspace's own .git", async () => {
    write(".gitignore", "build/\n");
    write("build/out.js", "built\n");
    write(".git/HEAD", "ref: refs/heads/main\n");
    const { before, after } = await turn(() => {
      write("build/out.js", "rebuilt\n");
      write(".git/HEAD", "ref: refs/heads/other\n");
      write("src/edit.ts", "export const a = 2;\n");
    });
    expect((await store.diff(before, after)).files.map((f) => f.path)).toEqual(["src/edit.ts"]);
    await store.restore(before, after);
    expect(read("build/out.js")).toBe("rebuilt\n");
    expect(read(".git/HEAD")).toBe("ref: refs/heads/other\n");
  });

  it("leave out files over 2 MB, and never remove one when reverting", async () => {
    const big = Buffer.alloc(MAX_SNAPSHOT_FILE_BYTES + 1, 97);
    const { before, after } = await turn(() => write("data/big.bin", big));
    expect((await store.diff(before, after)).files).toEqual([]);
    await store.restore(before, after);
    expect(exists("data/big.bin")).toBe(true);
  });

  it("stop recording a file once it grows past 2 MB", async () => {
    write("grows.txt", "small\n");
    const small = await store.take();
    write("grows.txt", Buffer.alloc(MAX_SNAPSHOT_FILE_BYTES + 1, 97));
    const large = await store.take();
    expect((await store.diff(small, large)).files.map((f) => [f.path, f.status])).toEqual([
      ["grows.txt", "deleted"],
    ]);
    // Undoing the revert must not delete the large file, which no snapshot holds.
    await store.restore(large, small);
    expect(readFileSync(path.join(root, "grows.txt")).length).toBe(MAX_SNAPSHOT_FILE_BYTES + 1);
  });

  it("store bytes as they are, whatever the workspace's .gitattributes say", async () => {
    write(".gitattributes", "* text eol=crlf\n");
    const { before, after } = await turn(() => write("keep.txt", "changed\n"));
    await store.restore(before, after);
    expect(read("keep.txt")).toBe("unchanged\n");
  });

  it("cut a patch that is too long at a file boundary, keeping the whole file list", async () => {
    const small = new SnapshotStore({ gitDir, workTree: root }, { maxPatchBytes: 400 });
    const before = await small.take();
    write("a.txt", "x\n".repeat(50));
    write("b.txt", "y\n".repeat(200));
    const diff = await small.diff(before);
    expect(diff.truncated).toBe(true);
    expect(diff.files.map((f) => f.path)).toEqual(["a.txt", "b.txt"]);
    expect(diff.patch).toContain("a/a.txt");
    expect(diff.patch).not.toContain("b.txt");
  });

  it("refuse a snapshot that does not exist", async () => {
    await expect(store.diff("0".repeat(40))).rejects.toThrow(/does not exist/);
    const id = await store.take();
    await expect(store.restore("1".repeat(40), id)).rejects.toThrow(/does not exist/);
  });

  it("keep only the newest snapshots and collect the rest", async () => {
    const pruning = new SnapshotStore({ gitDir, workTree: root }, { keep: 2, gcEvery: 3 });
    write("v.txt", "1\n");
    const first = await pruning.take();
    for (const v of ["2", "3"]) {
      write("v.txt", `${v}\n`);
      await pruning.take();
    }
    await expect(pruning.diff(first)).rejects.toThrow(/no longer kept/);
  });
});
