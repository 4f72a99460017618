import type { PresencePerson } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { MAX_DOTS_PER_FILE, treeMarks } from "./tree-marks";

const person = (id: string, file: string | null, extra: Partial<PresencePerson> = {}): PresencePerson => ({
  id,
  name: id,
  colour: `#${id.padStart(6, "0")}`,
  role: "editor",
  file,
  you: false,
  ...extra,
});

describe("the file tree's marks of files others have open", () => {
  it("puts a dot of each other person's colour on the file they have open, never one for yourself", () => {
    const marks = treeMarks([
      person("1", "a.ts", { you: true }),
      person("2", "a.ts"),
      person("3", "src/b.ts"),
      person("4", null),
    ]);
    expect([...marks.keys()]).toEqual(["a.ts", "src/b.ts"]);
    expect(marks.get("a.ts")?.dots.map((d) => d.colour)).toEqual(["#000002"]);
  });

  it("shows at most a few dots on one file and counts the rest", () => {
    const people = Array.from({ length: 7 }, (_, i) => person(String(i + 1), "busy.ts"));
    const mark = treeMarks(people).get("busy.ts");
    expect(mark?.dots).toHaveLength(MAX_DOTS_PER_FILE);
    expect(mark?.more).toBe(7 - MAX_DOTS_PER_FILE);
  });

  it("names the agent's dot with whom it works for", () => {
    const agent = person("9", "a.ts", { name: "Agent", agent: { for: "Ada" } });
    expect(treeMarks([agent]).get("a.ts")?.dots[0]?.name).toBe("Agent · for Ada");
  });
});
