import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `function greet(name) {
  console.log("Hello, " + name);
  return name;
}
`;

describe("escape-normalized strategy", () => {
  it("matches old_string the model escaped twice and unescapes new_string the same way", () => {
    const old = String.raw`console.log(\"Hello, \" + name);\n  return name;`;
    const updated = String.raw`console.log(\"Hi, \" + name);\n  return name.trim();`;
    const result = replace(source, old, updated);
    expect(result).toMatchObject({ ok: true, strategy: "escape-normalized" });
    if (result.ok) expect(result.content).toContain(`  console.log("Hi, " + name);\n  return name.trim();\n`);
  });

  it("leaves escape sequences alone when the file really contains them", () => {
    const file = 'const lines = text.split("\\n");\n';
    const result = replace(file, String.raw`split("\n")`, String.raw`split(/\r?\n/)`);
    expect(result).toMatchObject({ ok: true, strategy: "exact" });
    if (result.ok) expect(result.content).toBe("const lines = text.split(/\\r?\\n/);\n");
  });

  it("does not match when the unescaped text is not in the file either", () => {
    const old = String.raw`console.log(\"Goodbye, \" + name);`;
    expect(replace(source, old, "x")).toMatchObject({ ok: false, code: "not_found" });
  });
});
