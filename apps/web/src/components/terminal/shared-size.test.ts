import { describe, expect, it } from "vitest";
import { possessiveList, sharedFit } from "./shared-size";
import type { TerminalAttached } from "./terminal-connection";

const attached = (size: TerminalAttached["size"], people: TerminalAttached["people"]): TerminalAttached => ({
  type: "attached",
  people,
  more: 0,
  size,
});

describe("how a shared terminal sits in a panel", () => {
  const people = [
    { name: "Owner", input: true, cols: 120, rows: 40 },
    { name: "Bea", input: true, cols: 60, rows: 20 },
    { name: "Vi", input: false, cols: 30, rows: 10 },
  ];

  it("marks the area outside a smaller window as unused and says whose window it is sized for", () => {
    const fit = sharedFit(attached({ cols: 60, rows: 20 }, people), 120, 40);
    expect(fit.grid).toEqual({ cols: 60, rows: 20 });
    expect(fit.sizedFor).toEqual(["Bea"]);
    expect(fit.names).toEqual(["Owner", "Bea", "Vi"]);
  });

  it("has no unused area in the smallest window itself, or in a smaller one (a viewer's)", () => {
    expect(sharedFit(attached({ cols: 60, rows: 20 }, people), 60, 20).grid).toBeNull();
    expect(sharedFit(attached({ cols: 60, rows: 20 }, people), 30, 10).grid).toBeNull();
  });

  it("lists each person once, however many tabs they have attached", () => {
    const twice = [...people, { name: "Bea", input: true, cols: 60, rows: 20 }];
    expect(sharedFit(attached({ cols: 60, rows: 20 }, twice), 120, 40)).toMatchObject({
      names: ["Owner", "Bea", "Vi"],
      sizedFor: ["Bea"],
    });
  });

  it("says nothing before the service said who is attached", () => {
    expect(sharedFit(null, 80, 24)).toEqual({ grid: null, sizedFor: [], names: [], more: 0 });
  });

  it("names people as a sentence does", () => {
    expect(possessiveList(["Bea"])).toBe("Bea's");
    expect(possessiveList(["Bea", "Ed"])).toBe("Bea's and Ed's");
    expect(possessiveList(["Bea", "Ed", "Kim"])).toBe("Bea's, Ed's and Kim's");
  });
});
