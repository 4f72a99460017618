import { describe, expect, it } from "vitest";
import { hoverText } from "./contents";

describe("hoverText", () => {
  it("reads every shape of hover contents the protocol allows", () => {
    expect(hoverText(null)).toBe("");
    expect(hoverText({ contents: "plain" })).toBe("plain");
    expect(hoverText({ contents: { kind: "markdown", value: "**bold**\n" } })).toBe("**bold**");
    expect(hoverText({ contents: { language: "python", value: "def f()" } })).toBe("```python\ndef f()\n```");
    expect(hoverText({ contents: ["first", "", { language: "sh", value: "ls" }] })).toBe(
      "first\n\n```sh\nls\n```",
    );
  });
});
