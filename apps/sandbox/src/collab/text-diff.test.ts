import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyTextEdits, textEdits } from "./text-diff";

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("textEdits", () => {
  it("turns one text into the other", async () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", "😀", "😁", "é"), maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(text, text, async (from, to) => {
        const edits = await textEdits(from, to);
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

  it("changes one word of a long file as one small edit", async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i} of the file`);
    const from = lines.join("\n");
    lines[5000] = "line 5000 of the changed file";
    expect(await textEdits(from, lines.join("\n"))).toEqual([
      { at: from.indexOf("line 5000") + "line 5000 of the ".length, remove: 0, insert: "changed " },
    ]);
  });

  it("does not split two emoji that share their first half", async () => {
    expect(await textEdits("x😀", "x😁")).toEqual([{ at: 1, remove: 2, insert: "😁" }]);
  });

  it("replaces the runs it has no budget left for whole, still turning one text into the other", async () => {
    // The shape of a file a workspace process swaps between two versions: long random lines that
    // share nothing, each a run of its own between separator lines, plus one small change.
    const random = (n: number) => randomBytes(n).toString("base64url").slice(0, n);
    const version = () => Array.from({ length: 30 }, () => random(5000)).join("\n=\n");
    const from = `${version()}\nsame line, typo\n`;
    const to = `${version()}\nsame line, fixed\n`;
    // Lines are diffed at once; no run's characters can be within 500 ms, so each run is replaced
    // whole (the last one joins the small change, next to it): the separators in between stay.
    const edits = await textEdits(from, to, 500);
    expect(applyTextEdits(from, edits)).toBe(to);
    expect(edits.length).toBe(30);
    // With the budget, a run it reaches is diffed by character.
    expect(await textEdits("same line, typo\n", "same line, fixed\n", 1000)).toEqual([
      { at: 11, remove: 4, insert: "fixed" },
    ]);
  });

  it("gives the event loop back while a heavy diff runs", async () => {
    const random = (n: number) => randomBytes(n).toString("base64url").slice(0, n);
    const version = () => Array.from({ length: 20 }, () => random(19_990)).join("\n=\n");
    const from = version();
    const to = version();
    // Event-loop turns that ran while the diff did (a synchronous diff would allow none).
    let turns = 0;
    let ticking = setImmediate(function tick() {
      turns++;
      ticking = setImmediate(tick);
    });
    const edits = await textEdits(from, to, 300);
    clearImmediate(ticking);
    expect(applyTextEdits(from, edits)).toBe(to);
    expect(turns).toBeGreaterThan(10);
  });
});
