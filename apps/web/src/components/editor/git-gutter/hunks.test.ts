import { EditorState, Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { hunkAtLine, revertHunk } from "./hunks";

/** A file's text as editors write it: each line ends with a line break. */
const text = (...lines: string[]) => Text.of([...lines, ""]);
const base = text("one", "two", "three", "four", "five");

/** The text once the hunk on `line` is reverted. */
function reverted(doc: Text, line: number): string {
  const hunk = hunkAtLine(base, doc, line);
  if (!hunk) throw new Error(`no hunk on line ${line}`);
  return EditorState.create({ doc })
    .update({ changes: revertHunk(base, doc, hunk) })
    .state.doc.toString();
}

describe("a hunk of the gutter", () => {
  it("shows the index's lines of the change the clicked line is in, and nothing beside an unchanged line", () => {
    const doc = text("one", "TWO", "THREE", "four", "five");
    expect(hunkAtLine(base, doc, 3)).toMatchObject({ indexLines: "two\nthree", fromLine: 2, toLine: 3 });
    expect(hunkAtLine(base, doc, 4)).toBeNull();
  });

  it("shows deleted lines at the line below them and no lines for added ones", () => {
    expect(hunkAtLine(base, text("one", "four", "five"), 2)).toMatchObject({ indexLines: "two\nthree" });
    expect(hunkAtLine(base, text("one", "new", "two", "three", "four", "five"), 2)).toMatchObject({
      indexLines: "",
    });
  });

  it("puts the index's lines back and leaves the other changes as they are", () => {
    const doc = text("ONE", "two", "three", "FOUR", "five");
    expect(reverted(doc, 4)).toBe(text("ONE", "two", "three", "four", "five").toString());
    expect(reverted(text("one", "four", "five"), 2)).toBe(base.toString());
    expect(reverted(text("one", "two", "three", "four", "five", "six"), 6)).toBe(base.toString());
    expect(reverted(text("one", "two", "three", "four", "FIVE"), 5)).toBe(base.toString());
    expect(reverted(text("zero", "one", "two", "three", "four", "five"), 1)).toBe(base.toString());
  });
});
