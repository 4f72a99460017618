import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `export function total(items: Item[]): number {
  return items.reduce((sum, item) => sum + item.price, 0);
}
`;

describe("exact strategy", () => {
  it("replaces the text exactly as the model quoted it", () => {
    const result = replace(source, "item.price", "item.price * item.quantity", false);
    expect(result).toMatchObject({ ok: true, strategy: "exact", replacements: 1 });
    if (result.ok) expect(result.content).toContain("sum + item.price * item.quantity, 0");
  });

  it("does not match text that differs in letter case", () => {
    const result = replace(source, "Item.Price", "x", false);
    expect(result).toMatchObject({ ok: false, code: "not_found" });
  });
});
