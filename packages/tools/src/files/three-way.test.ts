import { describe, expect, it } from "vitest";
import { mergeThreeWay } from "./three-way";

const base = "line 1\nline 2\nline 3\nline 4\n";

describe("mergeThreeWay", () => {
  it("applies changes to neighbouring lines together", () => {
    const agent = "line 1\nline 2\nline 3 by the agent\nline 4\n";
    const people = "line 1 typed\nline 2 typed\nline 3\nline 4 from sed\n";
    expect(mergeThreeWay(base, agent, people)).toEqual({
      ok: true,
      text: "line 1 typed\nline 2 typed\nline 3 by the agent\nline 4 from sed\n",
    });
  });

  it("keeps lines others inserted before, between and after the agent's changes", () => {
    const agent = "line 1\nLINE 2\nline 3\nLINE 4\n";
    const people = "new first\nline 1\nline 2\nbetween\nline 3\nline 4\nnew last";
    expect(mergeThreeWay(base, agent, people)).toEqual({
      ok: true,
      text: "new first\nline 1\nLINE 2\nbetween\nline 3\nLINE 4\nnew last",
    });
  });

  it("takes the same change made on both sides once", () => {
    const both = "line 1\nline 2 fixed\nline 3\nline 4\n";
    expect(mergeThreeWay(base, both, both)).toEqual({ ok: true, text: both });
  });

  it("finds a conflict where both changed a line, with where those lines are now", () => {
    const agent = "line 1\nline 2\nline 3 by the agent\nline 4\n";
    const people = "inserted\nline 1\nline 2\nline 3 typed\nline 4\n";
    expect(mergeThreeWay(base, agent, people)).toEqual({
      ok: false,
      conflicts: [{ base: { from: 2, to: 3 }, current: { from: 3, to: 4 } }],
    });
  });

  it("finds a conflict where both inserted at the same place, or one deleted what the other changed", () => {
    const insertedByAgent = "line 1\nagent\nline 2\nline 3\nline 4\n";
    const insertedByPeople = "line 1\nperson\nline 2\nline 3\nline 4\n";
    expect(mergeThreeWay(base, insertedByAgent, insertedByPeople)).toMatchObject({ ok: false });
    const deleted = "line 1\nline 4\n";
    expect(mergeThreeWay(base, "line 1\nline 2\nLINE 3\nline 4\n", deleted)).toEqual({
      ok: false,
      conflicts: [{ base: { from: 1, to: 3 }, current: { from: 1, to: 1 } }],
    });
  });

  it("sees a last line without a line break that others typed on as changed, not as a line added after it", () => {
    const unterminated = "line 1\nline 2";
    expect(mergeThreeWay(unterminated, "line 1\nline 2 by the agent", "line 1\nline 2 typed")).toEqual({
      ok: false,
      conflicts: [{ base: { from: 1, to: 2 }, current: { from: 1, to: 2 } }],
    });
    expect(mergeThreeWay(unterminated, "LINE 1\nline 2", "line 1\nline 2 typed")).toEqual({
      ok: true,
      text: "LINE 1\nline 2 typed",
    });
  });

  it("merges the agent's change far down a 10 000-line file with lines typed at its top and bottom", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `const value${i} = compute(${i});\n`);
    const at = (changes: Record<number, string>) => lines.map((line, i) => changes[i] ?? line).join("");
    const agent = at({ 6000: "const value6000 = compute(6000) + 1;\n" });
    const people = at({ 0: "typed\n", 1: "", 9999: "const value9999 = compute(9999); // typed\n" });
    expect(mergeThreeWay(at({}), agent, people)).toEqual({
      ok: true,
      text: at({
        0: "typed\n",
        1: "",
        6000: "const value6000 = compute(6000) + 1;\n",
        9999: "const value9999 = compute(9999); // typed\n",
      }),
    });
  });
});
