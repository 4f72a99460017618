import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyTextEdits, textEdits } from "./text-diff";

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("textEdits", () => {
  it("turns one text into the other", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", "😀", "😁", "é"), maxLength: 40 });
    fc.assert(
      fc.property(text, text, (from, to) => {
        const edits = textEdits(from, to);
        expect(applyTextEdits(from, edits)).toBe(to);
        for (const edit of edits) {
          // No edit starts or ends between the halves of a surrogate pair, nor inserts half of one.
          expect(from.slice(0, edit.at)).not.toMatch(loneSurrogate);
          expect(from.slice(edit.at, edit.at + edit.remove)).not.toMatch(loneSurrogate);
          expect(edit.insert).not.toMatch(loneSurrogate);
        }
      }),
    );
  });

  it("changes one word of a long file as one small edit", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i} of the file`);
    const from = lines.join("\n");
    lines[5000] = "line 5000 of the changed file";
    expect(textEdits(from, lines.join("\n"))).toEqual([
      { at: from.indexOf("line 5000") + "line 5000 of the ".length, remove: 0, insert: "changed " },
    ]);
  });

  it("does not split two emoji that share their first half", () => {
    expect(textEdits("x😀", "x😁")).toEqual([{ at: 1, remove: 2, insert: "😁" }]);
  });

  it("replaces runs of lines that share nothing whole, leaving the lines between alone", () => {
    // The shape of a file a workspace process swaps between two versions: long random lines that
    // share nothing, each a run of its own between separator lines, plus one small change.
    const random = (n: number) => randomBytes(n).toString("base64url").slice(0, n);
    const version = () => Array.from({ length: 30 }, () => random(5000)).join("\n=\n");
    const from = `${version()}\nsame line, typo\n`;
    const to = `${version()}\nsame line, fixed\n`;
    // A character diff of two random lines would keep scattered characters only: each run is
    // replaced whole (the last one joins the small change, next to it), the separators stay.
    const edits = textEdits(from, to);
    expect(applyTextEdits(from, edits)).toBe(to);
    expect(edits.length).toBe(30);
  });

  it("replaces whole what its budget does not reach, still turning one text into the other", () => {
    const from = "first line\nsame line, typo\nlast line\n";
    const to = "first line\nsame line, fixed\nlast line\n";
    expect(textEdits(from, to, 0)).toEqual([{ at: 22, remove: 4, insert: "fixed" }]);
    expect(textEdits(`${from}x`, `y${to}`, 0)).toEqual([
      { at: 0, remove: from.length + 1, insert: `y${to}` },
    ]);
    expect(textEdits(`${from}x`, `y${to}`, 1000)).toEqual([
      { at: 0, remove: 0, insert: "y" },
      { at: 22, remove: 4, insert: "fixed" },
      { at: from.length, remove: 1, insert: "" },
    ]);
  });
});
