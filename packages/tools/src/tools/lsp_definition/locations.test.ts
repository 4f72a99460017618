import { describe, expect, it } from "vitest";
import { toLocations, uriToPath } from "./locations";

const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } };
const wide = { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } };

describe("toLocations", () => {
  it("flattens a location, a list, and location links (using the name's range)", () => {
    expect(toLocations(null)).toEqual([]);
    expect(toLocations({ uri: "file:///a", range })).toEqual([{ uri: "file:///a", range }]);
    expect(toLocations([{ uri: "file:///a", range }])).toEqual([{ uri: "file:///a", range }]);
    expect(toLocations([{ targetUri: "file:///b", targetRange: wide, targetSelectionRange: range }])).toEqual(
      [{ uri: "file:///b", range }],
    );
  });
});

describe("uriToPath", () => {
  it("turns file URIs into paths and leaves other schemes alone", () => {
    expect(uriToPath("file:///workspace/a%20b.py")).toBe("/workspace/a b.py");
    expect(uriToPath("jdt://contents/x")).toBeUndefined();
  });
});
