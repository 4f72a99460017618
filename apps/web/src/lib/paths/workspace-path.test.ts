import { describe, expect, it } from "vitest";
import {
  baseName,
  isWithin,
  joinPath,
  movedPath,
  normalizePath,
  parentOf,
  resolveLink,
  validEntryName,
} from "./workspace-path";

describe("workspace paths", () => {
  it("spells every path the same way whatever slashes it came with", () => {
    expect(normalizePath("./src//a.ts")).toBe("src/a.ts");
    expect(normalizePath("src/")).toBe("src");
    expect(normalizePath("")).toBe(".");
    expect(normalizePath("/")).toBe(".");
  });

  it("finds the folder that lists an entry", () => {
    expect(parentOf("src/lib/a.ts")).toBe("src/lib");
    expect(parentOf("README.md")).toBe(".");
    expect(parentOf("./README.md")).toBe(".");
  });

  it("joins a folder and a name", () => {
    expect(joinPath(".", "a.ts")).toBe("a.ts");
    expect(joinPath("src", "a.ts")).toBe("src/a.ts");
    expect(baseName("src/lib/a.ts")).toBe("a.ts");
  });

  it("tells what lies inside a folder without matching siblings that share a prefix", () => {
    expect(isWithin("src/a.ts", "src")).toBe(true);
    expect(isWithin("src", "src")).toBe(true);
    expect(isWithin("src2/a.ts", "src")).toBe(false);
    expect(isWithin("anything", ".")).toBe(true);
  });

  it("follows a renamed folder to the new paths of what it holds", () => {
    expect(movedPath("src/a.ts", "src", "lib")).toBe("lib/a.ts");
    expect(movedPath("src", "src", "lib/src")).toBe("lib/src");
    expect(movedPath("srcx/a.ts", "src", "lib")).toBe("srcx/a.ts");
  });

  it("refuses names that are not a single path segment", () => {
    expect(validEntryName("notes.md")).toBeNull();
    expect(validEntryName("  ")).toBe("Give it a name.");
    expect(validEntryName("..")).toBe("Give it a name.");
    expect(validEntryName("a/b")).toBe("A name cannot contain “/”.");
  });

  it("resolves a Markdown link from the file's folder and refuses one that leaves the workspace", () => {
    expect(resolveLink("docs/guide/README.md", "img/a%20b.png")).toBe("docs/guide/img/a b.png");
    expect(resolveLink("docs/README.md", "../src/main.ts#L3")).toBe("src/main.ts");
    expect(resolveLink("docs/README.md", "/logo.svg")).toBe("logo.svg");
    expect(resolveLink("README.md", "../../etc/passwd")).toBeUndefined();
    expect(resolveLink("README.md", "https://example.com/x.png")).toBeUndefined();
    expect(resolveLink("README.md", "#usage")).toBeUndefined();
  });
});
