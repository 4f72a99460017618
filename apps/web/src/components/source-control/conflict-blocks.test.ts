import { describe, expect, it } from "vitest";
import { conflictBlocks } from "./conflict-blocks";

describe("conflictBlocks", () => {
  it("finds each block with its two sides, with or without the base section", () => {
    const text = [
      "top\n",
      "<<<<<<< HEAD\n",
      "ours 1\n",
      "=======\n",
      "theirs 1\n",
      ">>>>>>> origin/main\n",
      "middle\n",
      "<<<<<<< HEAD\n",
      "ours 2\n",
      "||||||| base\n",
      "base 2\n",
      "=======\n",
      "theirs 2\n",
      ">>>>>>> origin/main\n",
    ].join("");
    const blocks = conflictBlocks(text);
    expect(blocks.map(({ ours, theirs }) => [ours, theirs])).toEqual([
      ["ours 1\n", "theirs 1\n"],
      ["ours 2\n", "theirs 2\n"],
    ]);
    const [first] = blocks;
    expect(`${text.slice(0, first?.from)}${first?.theirs}${text.slice(first?.to)}`).toMatch(
      /^top\ntheirs 1\nmiddle\n/,
    );
  });

  it("ignores a block that never closes and lines that only look like markers", () => {
    expect(conflictBlocks("<<<<<<< HEAD\nours\n=======\ntheirs\n")).toEqual([]);
    expect(conflictBlocks("======= not a split\n<<<<<<<<< eight\n")).toEqual([]);
  });
});
