import { describe, expect, it } from "vitest";
import { elementPolicy, keepsAttribute } from "./html-sanitizer";

describe("the hover HTML policy", () => {
  it("keeps formatting elements", () => {
    for (const tag of ["p", "PRE", "code", "span", "strong", "li"])
      expect(elementPolicy(tag), tag).toBe("keep");
  });

  it("removes scripts and embedded documents entirely", () => {
    for (const tag of ["script", "style", "iframe", "svg"]) expect(elementPolicy(tag), tag).toBe("drop");
  });

  it("turns links, images, forms and unknown elements into their text", () => {
    for (const tag of ["a", "img", "form", "input", "marquee"]) expect(elementPolicy(tag), tag).toBe("text");
  });

  it("keeps only the class attribute", () => {
    expect(keepsAttribute("class")).toBe(true);
    for (const name of ["onerror", "onclick", "href", "src", "style"])
      expect(keepsAttribute(name), name).toBe(false);
  });
});
