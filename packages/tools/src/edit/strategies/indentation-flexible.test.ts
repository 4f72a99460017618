import { describe, expect, it } from "vitest";
import { replace } from "../replace";

// The same four lines twice, nested differently.
const source = `class Job:
    def run(self, items):
        for item in items:
            if item.ready:
                item.start()
            item.log()

    def retry(self, items):
        for item in items:
            if item.ready:
                item.start()
                item.log()
`;

describe("indentation-flexible strategy", () => {
  it("picks the block whose nesting matches when the model used another indent unit and base", () => {
    const old = "for item in items:\n  if item.ready:\n    item.start()\n    item.log()";
    const updated =
      "for item in items:\n  if item.ready:\n    item.start()\n    item.log()\n  else:\n    item.skip()";
    const result = replace(source, old, updated);
    expect(result).toMatchObject({ ok: true, strategy: "indentation-flexible" });
    if (result.ok) {
      expect(result.content).toContain(`    def retry(self, items):
        for item in items:
            if item.ready:
                item.start()
                item.log()
            else:
                item.skip()
`);
      expect(result.content).toContain("                item.start()\n            item.log()\n\n");
    }
  });

  it("reports a conflict when the model's nesting matches neither block", () => {
    const old = "for item in items:\n  if item.ready:\n  item.start()\n  item.log()";
    expect(replace(source, old, "x")).toMatchObject({ ok: false, code: "conflict", lines: [3, 9] });
  });
});
