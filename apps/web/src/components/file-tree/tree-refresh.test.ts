import { describe, expect, it } from "vitest";
import { foldersToRefresh } from "./tree-refresh";

describe("foldersToRefresh", () => {
  it("refreshes the folder that gained or lost an entry", () => {
    expect(
      foldersToRefresh([
        { type: "add", path: "src/new.ts" },
        { type: "unlinkDir", path: "build" },
        { type: "addDir", path: "src/lib/util" },
        { type: "unlink", path: "src/old.ts" },
      ]),
    ).toEqual(["src", ".", "src/lib"]);
  });

  it("leaves listings alone when only file contents changed", () => {
    expect(foldersToRefresh([{ type: "change", path: "src/a.ts" }])).toEqual([]);
  });
});
