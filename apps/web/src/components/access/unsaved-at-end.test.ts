import { describe, expect, it } from "vitest";
import { clipboardText } from "./unsaved-at-end";

describe("what a person whose access ended can copy out", () => {
  it("is the one file's text as it was", () => {
    expect(clipboardText([{ path: "a.txt", text: "typed\n" }])).toBe("typed\n");
  });

  it("names each file when there are several", () => {
    expect(
      clipboardText([
        { path: "a.txt", text: "one\n" },
        { path: "src/b.ts", text: "two\n" },
      ]),
    ).toBe("=== a.txt ===\none\n\n=== src/b.ts ===\ntwo\n");
  });
});
