import { describe, expect, it } from "vitest";
import { reindent } from "./reindent";

describe("reindent", () => {
  it("leaves new_string alone when old_string's indentation was already the file's", () => {
    expect(reindent("  a\n    b", "  a\n    b  ", "  x\n      y")).toBe("  x\n      y");
  });

  it("moves new_string to the file's base indentation, keeping its nesting", () => {
    expect(
      reindent("if (a) {\n  b();\n}", "    if (a) {\n      b();\n    }", "if (a) {\n  c();\n  d();\n}"),
    ).toBe("    if (a) {\n      c();\n      d();\n    }");
  });

  it("converts the model's spaces to the file's tabs level by level", () => {
    expect(reindent("if x:\n    y()", "\tif x:\n\t\ty()", "if x:\n    y()\n    z()")).toBe(
      "\tif x:\n\t\ty()\n\t\tz()",
    );
  });

  it("keeps blank lines and lines shallower than old_string as written", () => {
    expect(reindent("  a\n  b", "a\nb", "  a\n\nb")).toBe("a\n\nb");
  });
});
