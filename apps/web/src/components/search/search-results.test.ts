import { textQuery } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { previewReplacement } from "./replace-preview";
import { addSearchEvent, resultRows, searching, withoutFile } from "./search-results";

const match = (line: number) => ({ line, column: 1, text: `line ${line}`, ranges: [{ start: 0, end: 4 }] });

describe("find in files results", () => {
  it("groups batches by file, keeping each file where it first appeared", () => {
    let results = addSearchEvent(searching, {
      type: "matches",
      files: [
        { path: "a.ts", matches: [match(1)] },
        { path: "b.ts", matches: [match(2)] },
      ],
    });
    results = addSearchEvent(results, { type: "matches", files: [{ path: "a.ts", matches: [match(9)] }] });
    results = addSearchEvent(results, { type: "done", matchCount: 3, fileCount: 2, truncated: true });
    expect(results.files.map((f) => [f.path, f.matches.map((m) => m.line)])).toEqual([
      ["a.ts", [1, 9]],
      ["b.ts", [2]],
    ]);
    expect(results).toMatchObject({ status: "done", matchCount: 3, truncated: true });
    expect(resultRows(results, new Set(["a.ts"])).map((r) => r.kind)).toEqual(["file", "file", "match"]);
    expect(withoutFile(results, "a.ts")).toMatchObject({ matchCount: 1, files: [{ path: "b.ts" }] });
  });

  it("ends with the reason when the pattern is refused", () => {
    const failed = addSearchEvent(searching, {
      type: "done",
      matchCount: 0,
      fileCount: 0,
      truncated: false,
      error: "not a valid regular expression: unclosed group",
    });
    expect(failed).toMatchObject({ status: "failed", error: /unclosed group/ });
  });

  it("previews a replacement with the groups of a regex filled in", () => {
    const literal = textQuery.parse({ pattern: "a.b" });
    expect(previewReplacement(literal, "a.b", "$1")).toBe("$1");
    const regex = textQuery.parse({ pattern: "(\\w)=(?<n>\\d)", regex: true });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ripgrep's syntax for a named group
    expect(previewReplacement(regex, "a=1", "${n}:$1")).toBe("1:a");
    expect(previewReplacement(textQuery.parse({ pattern: "(?P<x>a)", regex: true }), "a", "z")).toBe("z");
  });
});
