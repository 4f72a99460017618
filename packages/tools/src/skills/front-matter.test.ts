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
});
