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
});
