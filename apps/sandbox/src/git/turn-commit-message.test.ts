import { describe, expect, it } from "vitest";
import { plainTurnMessage } from "./turn-commit-message";

const files = [{ path: "a.ts", status: "modified" as const, additions: 1, deletions: 1, binary: false }];

describe("the plain message of a turn's commit", () => {
  it("is the prompt's first line, on one line and at most 72 characters", () => {
    expect(plainTurnMessage("  Fix the login\nand more below", files)).toBe("Fix the login");
    expect(plainTurnMessage("tab\there \u001b[31mred\u001b[0m", files)).toBe("tab here [31mred [0m");
    const long = plainTurnMessage("x".repeat(200), files);
    expect(long).toHaveLength(72);
    expect(long.endsWith("…")).toBe(true);
  });

  it("counts the files when the prompt has no words", () => {
    expect(plainTurnMessage("   \n", files)).toBe("Agent changes to 1 file");
  });
});
