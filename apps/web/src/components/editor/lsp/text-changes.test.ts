import { Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { changesBetween } from "./text-changes";

const text = (s: string) => Text.of(s.split("\n"));

describe("changesBetween", () => {
  it("turns one text into the other", () => {
    const pairs: [string, string][] = [
      ["import os\nprint(x)\n", "import os\nprint(y)\n"],
      ["abc", ""],
      ["", "new file\n"],
      ["aaaa", "aa"],
      ["line 1\nline 2", "line 0\nline 1\nline 2"],
    ];
    for (const [before, after] of pairs) {
      const changes = changesBetween(text(before), text(after));
      expect(changes.apply(text(before)).toString()).toBe(after);
    }
  });

  it("touches only the part that differs", () => {
    const changes = changesBetween(text("import os\nprint(x)\n"), text("import os\nprint(yy)\n"));
    const spans: [number, number, string][] = [];
    changes.iterChanges((from, to, _f, _t, inserted) => spans.push([from, to, inserted.toString()]));
    expect(spans).toEqual([[16, 17, "yy"]]);
  });

  it("is empty for equal texts", () => {
    expect(changesBetween(text("same"), text("same")).empty).toBe(true);
  });
});
