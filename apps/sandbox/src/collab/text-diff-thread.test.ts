import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { applyTextEdits } from "./text-diff";
import { textEditsOffThread } from "./text-diff-thread";

describe("textEditsOffThread", () => {
  it("diffs megabyte texts while the event loop keeps running", async () => {
    const random = (n: number) => randomBytes(n).toString("base64url").slice(0, n);
    const version = () => Array.from({ length: 90 }, () => random(19_990)).join("\n=\n");
    const from = version();
    const to = version();
    // Event-loop turns that ran while the diff did (a diff on the loop would allow none).
    let turns = 0;
    let ticking = setImmediate(function tick() {
      turns++;
      ticking = setImmediate(tick);
    });
    const edits = await textEditsOffThread(from, to);
    clearImmediate(ticking);
    expect(applyTextEdits(from, edits)).toBe(to);
    expect(turns).toBeGreaterThan(10);
  });

  it("turns one text into the other when only a part in the middle of a long text differs, small or large", async () => {
    const around = "const value = compute(1); // 😀 line\n".repeat(10_000);
    const cases: [string, string][] = [
      ["compute(2)", "compute(2) + 1"],
      ["😀a", "😁a"],
      ["", "inserted\n"],
      ["removed\n", ""],
      ["x\n".repeat(2000), "y\nx\n".repeat(1000)],
    ];
    for (const [before, after] of cases) {
      const from = around + before + around;
      const to = around + after + around;
      const edits = await textEditsOffThread(from, to);
      expect(applyTextEdits(from, edits)).toBe(to);
      for (const edit of edits) {
        // Never between the two halves of a surrogate pair.
        expect(from.charCodeAt(edit.at - 1) >= 0xd800 && from.charCodeAt(edit.at - 1) <= 0xdbff).toBe(false);
      }
    }
  });
});
