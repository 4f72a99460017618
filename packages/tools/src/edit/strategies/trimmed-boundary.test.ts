import { describe, expect, it } from "vitest";
import { replace } from "../replace";
import { stripBoundary } from "./trimmed-boundary";

const source = `import { Item } from "./item";
const total = items
  .filter((item) => item.active)
  .reduce((sum, item) => sum + item.price, 0);
`;

describe("trimmed-boundary strategy", () => {
  it("matches a fragment the model wrapped in stray blank lines and drops them from new_string too", () => {
    const old = "\n\nitems\n  .filter((item) => item.active)\n\n";
    const updated = "\n\nitems\n  .filter((item) => item.active && !item.hidden)\n\n";
    const result = replace(source, old, updated);
    expect(result).toMatchObject({ ok: true, strategy: "trimmed-boundary" });
    if (result.ok) {
      expect(result.content).toContain(
        "const total = items\n  .filter((item) => item.active && !item.hidden)\n  .reduce(",
      );
    }
  });

  it("does not match when the trimmed text differs from the file", () => {
    const old = "\nitems\n  .filter((item) => item.enabled)\n";
    expect(replace(source, old, "x")).toMatchObject({ ok: false, code: "not_found" });
  });

  it("strips only the white space both strings share at their ends", () => {
    expect(stripBoundary("\n  value\n", "\n  key\n")).toBe("value");
    expect(stripBoundary("  value", "\tkey")).toBe("  value");
    expect(stripBoundary("value  \n", "key\n")).toBe("value  ");
  });
});
