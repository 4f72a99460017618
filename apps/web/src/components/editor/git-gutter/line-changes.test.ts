import { Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { lineChanges } from "./line-changes";

/** A file's text as editors write it: each line ends with a line break. */
const text = (...lines: string[]) => Text.of([...lines, ""]);
const base = text("one", "two", "three", "four", "five");

describe("the gutter's change markers", () => {
  it("show nothing while the text equals git's version", () => {
    expect(lineChanges(base, text("one", "two", "three", "four", "five"))).toEqual([]);
  });

  it("mark lines added at the start, in the middle and at the end", () => {
    expect(lineChanges(base, text("zero", "one", "two", "three", "four", "five"))).toEqual([
      { kind: "added", fromLine: 1, toLine: 1 },
    ]);
    expect(lineChanges(base, text("one", "two", "new a", "new b", "three", "four", "five"))).toEqual([
      { kind: "added", fromLine: 3, toLine: 4 },
    ]);
    expect(lineChanges(base, text("one", "two", "three", "four", "five", "six"))).toEqual([
      { kind: "added", fromLine: 6, toLine: 6 },
    ]);
  });

  it("mark lines changed at the start, in the middle and at the end", () => {
    expect(lineChanges(base, text("ONE", "two", "three", "four", "five"))).toEqual([
      { kind: "changed", fromLine: 1, toLine: 1 },
    ]);
    expect(lineChanges(base, text("one", "two", "THREE", "FOUR", "five"))).toEqual([
      { kind: "changed", fromLine: 3, toLine: 4 },
    ]);
    expect(lineChanges(base, text("one", "two", "three", "four", "five!"))).toEqual([
      { kind: "changed", fromLine: 5, toLine: 5 },
    ]);
  });

  it("mark where lines were deleted at the start, in the middle and at the end", () => {
    expect(lineChanges(base, text("two", "three", "four", "five"))).toEqual([
      { kind: "deleted", fromLine: 1, toLine: 1 },
    ]);
    expect(lineChanges(base, text("one", "two", "five"))).toEqual([
      { kind: "deleted", fromLine: 3, toLine: 3 },
    ]);
    // Below the last line of text: the empty line after its line break.
    expect(lineChanges(base, text("one", "two", "three"))).toEqual([
      { kind: "deleted", fromLine: 4, toLine: 4 },
    ]);
  });

  it("mark the last line changed when only its missing final line break comes or goes, as git does", () => {
    expect(lineChanges(Text.of(["one", "two"]), Text.of(["one", "two", "three"]))).toEqual([
      { kind: "changed", fromLine: 2, toLine: 3 },
    ]);
  });

  it("keep two edits apart as two markers", () => {
    expect(lineChanges(base, text("one", "TWO", "three", "four", "five", "six"))).toEqual([
      { kind: "changed", fromLine: 2, toLine: 2 },
      { kind: "added", fromLine: 6, toLine: 6 },
    ]);
  });
});
