import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedDistance, similarity } from "./similarity";

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

describe("similarity", () => {
  it("is 1 for equal lines and falls with the number of edits", () => {
    expect(similarity("return x;", "return x;")).toBe(1);
    expect(similarity("return x;", "return y;")).toBeCloseTo(1 - 1 / 9);
    expect(similarity("", "")).toBe(1);
  });

  it("reports 0 for lines too different to matter", () => {
    expect(similarity("cache.put(record.id, row);", "db.insert(row);")).toBe(0);
  });

  it("computes the true edit distance whenever it is within the bound", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "c", " "), maxLength: 30 });
    fc.assert(
      fc.property(text, text, fc.nat(40), (a, b, max) => {
        const exact = levenshtein(a, b);
        const bounded = boundedDistance(a, b, max);
        if (exact <= max) expect(bounded).toBe(exact);
        else expect(bounded).toBeGreaterThan(max);
      }),
      { numRuns: 3000 },
    );
  });
});
