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
});
