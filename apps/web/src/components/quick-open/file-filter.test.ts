import { describe, expect, it } from "vitest";
import { FileIndex, parseFileQuery } from "./file-filter";

describe("quick open's filter", () => {
  it("reads a line and a column after the name", () => {
    expect(parseFileQuery("app.ts")).toEqual({ text: "app.ts" });
    expect(parseFileQuery("app.ts:40")).toEqual({ text: "app.ts", line: 40 });
    expect(parseFileQuery(" app:40:7 ")).toEqual({ text: "app", line: 40, column: 7 });
    expect(parseFileQuery(":12")).toEqual({ text: "", line: 12 });
  });

  it("finds a file several folders deep from part of its name, best match first", () => {
    const files = [
      ...Array.from({ length: 50_000 }, (_, i) => `src/pkg${i % 100}/module${i}/file${i}.ts`),
      "src/deep/er/still/target-module.ts",
    ];
    const index = new FileIndex(files);
    expect(index.search("target", 5)[0]?.path).toBe("src/deep/er/still/target-module.ts");
    expect(index.search("tarmod", 5).map((hit) => hit.path)).toEqual(["src/deep/er/still/target-module.ts"]);
    expect(index.search("file4999.ts", 1)[0]).toMatchObject({ path: "src/pkg99/module4999/file4999.ts" });
    expect(index.search("", 2).map((hit) => hit.path)).toEqual(files.slice(0, 2));
  });
});
