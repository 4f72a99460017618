import { describe, expect, it } from "vitest";
import { parseSkillFile } from "./front-matter";

describe("parseSkillFile", () => {
  it("reads key: value pairs, quoted or not, and returns the body after them", () => {
    const parsed = parseSkillFile("---\nname: deploy\nDescription: 'Ship it: carefully'\n---\n# Deploy\n");
    expect(parsed).toEqual({
      fields: { name: "deploy", description: "Ship it: carefully" },
      body: "# Deploy\n",
    });
  });

  it("reads folded and literal blocks", () => {
    const parsed = parseSkillFile(
      "---\ndescription: >\n  one\n  two\nsteps: |\n  a\n  b\nname: x\n---\nbody",
    );
    expect(parsed.fields).toEqual({ description: "one two", steps: "a\nb", name: "x" });
  });

  it("accepts blank lines inside the front matter, as the markdown formatter writes it", () => {
    expect(parseSkillFile("---\n\nname: x\n---\nbody").fields).toEqual({ name: "x" });
  });

  it("handles CRLF and a BOM", () => {
    expect(parseSkillFile("\uFEFF---\r\nname: win\r\n---\r\ntext\r\n")).toEqual({
      fields: { name: "win" },
      body: "text\n",
    });
  });

  it("treats a file without front matter as all body", () => {
    expect(parseSkillFile("just text")).toEqual({ fields: {}, body: "just text" });
  });

  it("keeps the body of a skill whose front matter is not a mapping of scalars, or a YAML alias bomb", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (const name of "bcdefghijklmnopqrst")
      bomb.push(
        `${name}: &${name} [*${String.fromCharCode(name.charCodeAt(0) - 1)}, *${String.fromCharCode(name.charCodeAt(0) - 1)}]`,
      );
    expect(parseSkillFile(`---\n${bomb.join("\n")}\nname: x\n---\nbody`)).toEqual({
      fields: {},
      body: "body",
    });
    expect(parseSkillFile("---\n- a\n- b\n---\nbody")).toEqual({ fields: {}, body: "body" });
    expect(parseSkillFile("---\nname: [unclosed\n---\nbody")).toEqual({ fields: {}, body: "body" });
  });

  it("reads numbers and booleans as text and leaves nested values out", () => {
    expect(parseSkillFile("---\nname: x\nversion: 2\nmeta: {a: 1}\n---\n").fields).toEqual({
      name: "x",
      version: "2",
    });
  });
});
