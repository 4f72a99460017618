import { describe, expect, it } from "vitest";
import { previewPath } from "./preview-path";

describe("the preview's URL bar", () => {
  it("takes a path from the root of the port's origin", () => {
    expect(previewPath("")).toBe("/");
    expect(previewPath("  /about?tab=2#top ")).toBe("/about?tab=2");
    expect(previewPath("about")).toBe("/about");
  });

  it("keeps only the path of a full URL typed there, never its host", () => {
    expect(previewPath("https://elsewhere.example/login?next=/")).toBe("/login?next=/");
    expect(previewPath("//elsewhere.example/x")).toBe("/x");
  });
});
