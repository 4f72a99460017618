import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FileChange } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";
import { insideUnwatchedFolder } from "./watcher";

let daemon: TestDaemon;
const at = (p: string) => path.join(daemon.root, p);

beforeEach(async () => {
  daemon = await startTestDaemon({ watch: true });
});
afterEach(() => daemon.stop());

const reported = (change: FileChange) =>
  daemon.until("fs.changed", (params) =>
    params.changes.some((c) => c.type === change.type && c.path === change.path),
  );

describe("fs.changed notifications", () => {
  it("report a created, modified and deleted file with paths relative to the root", async () => {
    await mkdir(at("src"));
    await reported({ type: "addDir", path: "src" });
    await writeFile(at("src/a.txt"), "one");
    await reported({ type: "add", path: "src/a.txt" });
    await writeFile(at("src/a.txt"), "two, longer");
    await reported({ type: "change", path: "src/a.txt" });
    await rm(at("src/a.txt"));
    await reported({ type: "unlink", path: "src/a.txt" });
  });

  it("report files written into a folder in the same moment it was created", async () => {
    // Nothing waits between the folder and its contents: the files exist before any watch on it.
    await mkdir(at("a/b"), { recursive: true });
    await Promise.all([writeFile(at("a/one.txt"), "1"), writeFile(at("a/b/two.txt"), "2")]);
    await Promise.all([
      reported({ type: "addDir", path: "a" }),
      reported({ type: "add", path: "a/one.txt" }),
      reported({ type: "add", path: "a/b/two.txt" }),
    ]);
  });

  it("report a rename as the old path going and the new one coming", async () => {
    await writeFile(at("old.txt"), "x");
    await reported({ type: "add", path: "old.txt" });
    await rename(at("old.txt"), at("new.txt"));
    await Promise.all([
      reported({ type: "unlink", path: "old.txt" }),
      reported({ type: "add", path: "new.txt" }),
    ]);
  });

  it("report a deleted folder", async () => {
    await mkdir(at("gone"));
    await reported({ type: "addDir", path: "gone" });
    await rm(at("gone"), { recursive: true });
    await reported({ type: "unlinkDir", path: "gone" });
  });

  it("leave out what happens inside .git and node_modules", async () => {
    await mkdir(at(".git/objects"), { recursive: true });
    await mkdir(at("node_modules/pkg"), { recursive: true });
    await writeFile(at(".git/objects/abc"), "");
    await writeFile(at("node_modules/pkg/index.js"), "");
    // A change made afterwards is a marker: by the time it arrives, the earlier ones would have too.
    await writeFile(at("marker.txt"), "");
    await reported({ type: "add", path: "marker.txt" });
    const paths = daemon.notifications.flatMap((n) =>
      n.method === "fs.changed" ? n.params.changes.map((c) => c.path) : [],
    );
    expect(paths.filter((p) => p.startsWith(".git/") || p.startsWith("node_modules/"))).toEqual([]);
  });
});

describe("the watcher's filter", () => {
  it("ignores everything inside .git and node_modules at any depth, but not the folders themselves", () => {
    const root = "/w";
    expect(insideUnwatchedFolder(root, "/w/.git/HEAD")).toBe(true);
    expect(insideUnwatchedFolder(root, "/w/pkg/node_modules/x/index.js")).toBe(true);
    expect(insideUnwatchedFolder(root, "/w/.git")).toBe(false);
    expect(insideUnwatchedFolder(root, "/w/node_modules")).toBe(false);
    expect(insideUnwatchedFolder(root, "/w/src/git.ts")).toBe(false);
    expect(insideUnwatchedFolder(root, "/w")).toBe(false);
  });
});
