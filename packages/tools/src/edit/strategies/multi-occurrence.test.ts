import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `def report(items, tax_rate, discount):
    result = compute_total(items,
                           tax_rate,
                           discount)
    return result
`;

describe("multi-occurrence strategy", () => {
  it("matches a call the model wrote on one line that the file wraps over several", () => {
    const old = "result = compute_total(items, tax_rate, discount)";
    const result = replace(source, old, "result = compute_total(items, tax_rate, discount, rounding=2)");
    expect(result).toMatchObject({ ok: true, strategy: "multi-occurrence" });
    if (result.ok) {
      expect(result.content).toBe(`def report(items, tax_rate, discount):
    result = compute_total(items, tax_rate, discount, rounding=2)
    return result
`);
    }
  });

  it("matches lines the model wrapped that the file has on one line", () => {
    const file = "total = price(item, 2) + shipping(item)\n";
    const result = replace(file, "total = price(\n    item, 2\n) + shipping(item)", "total = 0");
    expect(result).toMatchObject({ ok: true, strategy: "multi-occurrence", content: "total = 0\n" });
  });

  it("does not match when a word or symbol is missing", () => {
    const old = "result = compute_total(items, tax_rate)";
    expect(replace(source, old, "x")).toMatchObject({ ok: false, code: "not_found" });
  });

  it("does not stretch one line of old_string over four lines of the file", () => {
    const file = "call(\n  a,\n  b,\n  c\n)\n";
    expect(replace(file, "call(a, b, c)", "x")).toMatchObject({ ok: false, code: "not_found" });
  });
});
