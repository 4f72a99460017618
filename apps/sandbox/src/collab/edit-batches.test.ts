import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editBatches } from "./edit-batches";
import { applyTextEdits, textEdits } from "./text-diff";

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("editBatches", () => {
  it("makes the same edits in batches of bounded size, never splitting a surrogate pair", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", "😀", "😁", "é"), maxLength: 60 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 1, max: 8 }), (from, to, batchUnits) => {
        let text = from;
        for (const batch of editBatches(textEdits(from, to), batchUnits)) {
          // One edit may exceed a batch only by the pair it must not split.
          if (batch.length > 1)
            expect(batch.reduce((sum, e) => sum + e.insert.length, 0)).toBeLessThanOrEqual(batchUnits);
          for (const edit of batch) {
            expect(edit.insert).not.toMatch(loneSurrogate);
            text = applyTextEdits(text, [edit]);
          }
        }
        expect(text).toBe(to);
      }),
    );
  });

  it("splits a file replaced whole into pieces", () => {
    const batches = editBatches([{ at: 0, remove: 10, insert: "x".repeat(200_000) }], 64 * 1024);
    expect(batches.map((batch) => batch.map((edit) => [edit.at, edit.remove, edit.insert.length]))).toEqual([
      [[0, 10, 65_536]],
      [[65_536, 0, 65_536]],
      [[131_072, 0, 65_536]],
      [[196_608, 0, 3_392]],
    ]);
  });
});
