import type { FileEntry } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { type FolderListing, treeRows } from "./tree-rows";

const file = (path: string, isDir = false): FileEntry => ({
  name: path.slice(path.lastIndexOf("/") + 1),
  path,
  isDir,
  isSymlink: false,
  size: 0,
  mtimeMs: 0,
});

const listings: Record<string, FolderListing> = {
  ".": { status: "ok", entries: [file("src", true), file("big", true), file("a.txt")], truncated: false },
  src: { status: "ok", entries: [file("src/lib", true), file("src/main.ts")], truncated: false },
  "src/lib": { status: "pending" },
  big: {
    status: "ok",
    entries: Array.from({ length: 20_000 }, (_, i) => file(`big/f${i}`)),
    truncated: false,
  },
};
const listing = (folder: string): FolderListing => listings[folder] ?? { status: "error", message: "gone" };
const summary = (rows: ReturnType<typeof treeRows>) =>
  rows.map((r) => `${" ".repeat(r.depth)}${r.kind === "entry" ? r.entry.path : r.kind}`);

describe("the tree as rows", () => {
  it("lists expanded folders depth first, with a row for a folder still loading", () => {
    const rows = treeRows({ listing, isExpanded: (p) => p === "src" || p === "src/lib", editing: null });
    expect(summary(rows)).toEqual(["src", " src/lib", "  loading", " src/main.ts", "big", "a.txt"]);
  });

  it("makes every entry of a 20 000-entry folder a row", () => {
    const rows = treeRows({ listing, isExpanded: (p) => p === "big", editing: null });
    expect(rows).toHaveLength(3 + 20_000);
    expect(summary(rows).at(-2)).toBe(" big/f19999");
  });

  it("puts the name field first in the folder being added to, and in place of the entry being renamed", () => {
    const adding = treeRows({
      listing,
      isExpanded: (p) => p === "src",
      editing: { kind: "new-file", folder: "src" },
    });
    expect(summary(adding).slice(0, 3)).toEqual(["src", " name", " src/lib"]);
    const renaming = treeRows({
      listing,
      isExpanded: () => false,
      editing: { kind: "rename", entry: file("a.txt") },
    });
    expect(summary(renaming)).toEqual(["src", "big", "name"]);
  });
});
