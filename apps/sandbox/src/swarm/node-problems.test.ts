import { describe, expect, it } from "vitest";
import { isUnreachable, nodeProblem } from "./node-problems";

const node = (Availability: string, State: string) => ({
  ID: "abcdefabcdef0123",
  Spec: { Availability },
  Status: { State },
});

describe("what a workspace's node stands in its way with", () => {
  it("says a drained, paused or lost machine's name and what to do, and nothing of an active one", () => {
    expect(nodeProblem(node("active", "ready"))).toBeUndefined();
    expect(nodeProblem(node("drain", "ready"))).toBe(
      "stopped because the machine it runs on (node abcdefabcdef) is being drained; ask an operator to make it active again",
    );
    expect(nodeProblem(node("pause", "ready"))).toMatch(
      /^the machine it runs on \(node abcdefabcdef\) is paused/,
    );
    for (const state of ["down", "unknown", "disconnected"])
      expect(nodeProblem(node("active", state))).toMatch(
        /^node unavailable: the machine it runs on \(node abcdefabcdef\)/,
      );
  });

  it("takes a refused, reset-while-connecting or missing engine socket for a lost machine, not a connection reset mid-answer", () => {
    expect(isUnreachable(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isUnreachable(Object.assign(new Error("connect"), { code: "ENOENT" }))).toBe(true);
    expect(isUnreachable(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(false);
    expect(
      isUnreachable(Object.assign(new Error("connect"), { code: "ECONNRESET", syscall: "connect" })),
    ).toBe(true);
    expect(isUnreachable(new Error("no such container"))).toBe(false);
  });
});
