import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `class Cart {
    add(item) {
        this.items.push(item);
        this.total += item.price;
    }
}
`;

describe("line-trimmed strategy", () => {
  it("matches lines the model quoted without their indentation and keeps the file's indentation", () => {
    const result = replace(
      source,
      "this.items.push(item);\nthis.total += item.price;",
      "this.items.push(item);\nthis.total += item.price * item.quantity;",
    );
    expect(result).toMatchObject({ ok: true, strategy: "line-trimmed" });
    if (result.ok) {
      expect(result.content).toBe(`class Cart {
    add(item) {
        this.items.push(item);
        this.total += item.price * item.quantity;
    }
}
`);
    }
  });

  it("ignores trailing white space the model added", () => {
    const result = replace(source, "    add(item) {  \n        this.items.push(item);   ", "    add(item) {");
    expect(result).toMatchObject({ ok: true, strategy: "line-trimmed" });
  });

  it("does not match lines whose text differs, even by one character", () => {
    const result = replace(source, "this.items.push(items);\nthis.total += item.price;", "x");
    expect(result).toMatchObject({ ok: false, code: "not_found" });
  });
});
