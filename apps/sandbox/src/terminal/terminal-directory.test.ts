import { describe, expect, it } from "vitest";
import { MAX_LISTED_TERMINALS, parseSessions } from "./terminal-directory";

describe("reading the workspace's tmux session list", () => {
  it("lists names oldest first, once each", () => {
    expect(parseSessions("1700000005 t1\n1700000001 main\n1700000009 t2\n1700000009 t2\n")).toEqual([
      "main",
      "t1",
      "t2",
    ]);
  });

  it("skips what a workspace could print that is no terminal name", () => {
    const hostile = [
      "1700000001 main",
      "1700000002 ../../etc",
      "1700000003 \u001b[2Jclear",
      "1700000004 two words",
      "not-a-time t9",
      `1700000005 ${"x".repeat(33)}`,
      "",
    ].join("\n");
    expect(parseSessions(hostile)).toEqual(["main"]);
  });

  it(`lists at most ${MAX_LISTED_TERMINALS} terminals`, () => {
    const many = Array.from({ length: 500 }, (_, i) => `${1700000000 + i} s${i}`).join("\n");
    const names = parseSessions(many);
    expect(names).toHaveLength(MAX_LISTED_TERMINALS);
    expect(names[0]).toBe("s0");
  });
});
