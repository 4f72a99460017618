import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../files/diff";
import { applyHunks } from "../../patch/unified/apply";
import { parseUnifiedDiff } from "../../patch/unified/parse";
import { editDiff } from "./diff-window";

const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

describe("editDiff", () => {
  it("gives the same diff as diffing the whole file, line numbers included", () => {
    const before = numbered(1000);
    const after = before.replace("line 500\n", "line five hundred\nand one more\n");
    expect(editDiff("f.txt", before, after, false)).toEqual(unifiedDiff("f.txt", before, after, false));
  });

  it("handles changes at the very start and end of a file, and a new file", () => {
    const before = numbered(20);
    for (const after of [`new first\n${before}`, `${before}new last\n`, before.replace(/\n$/, ""), ""]) {
      expect(editDiff("f.txt", before, after, false)).toEqual(unifiedDiff("f.txt", before, after, false));
    }
    expect(editDiff("f.txt", "", "hello\n", true)).toEqual(unifiedDiff("f.txt", "", "hello\n", true));
  });

  it("produces a diff that turns the old text into the new one, for any edit", () => {
    const text = fc
      .array(fc.constantFrom("a", "b", "", "  a", "c c"), { maxLength: 30 })
      .map((lines) => lines.join("\n"));
    fc.assert(
      fc.property(text, text, text, text, (head, removed, added, tail) => {
        const before = head + removed + tail;
        const after = head + added + tail;
        const { diff } = editDiff("f.txt", before, after, false);
        if (before === after) {
          expect(diff).toBe("");
          return;
        }
        const parsed = parseUnifiedDiff(diff);
        if (!parsed.ok) throw new Error(parsed.error.message);
        expect(applyHunks(before, parsed.value[0]?.hunks ?? [], "f.txt")).toBe(after);
      }),
      { numRuns: 2000 },
    );
  });
});
