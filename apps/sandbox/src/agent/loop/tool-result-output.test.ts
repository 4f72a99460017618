import { describe, expect, it } from "vitest";
import { completedCallOutput, takesImages } from "./tool-result-output";

const screenshot = { media_type: "image/png", width: 1280, height: 800, data: "iVBORw0KGgo=" };

describe("what the model reads of a call", () => {
  it("carries a screenshot as an image for a model that reads images", () => {
    expect(completedCallOutput({ ok: true, screenshot }, "Title: Shop", true)).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Title: Shop" },
        { type: "image-data", data: "iVBORw0KGgo=", mediaType: "image/png" },
      ],
    });
  });

  it("is the text alone for other models, and for results without a screenshot", () => {
    expect(completedCallOutput({ ok: true, screenshot }, "Title: Shop", false)).toEqual({
      type: "text",
      value: "Title: Shop",
    });
    expect(completedCallOutput({ ok: true }, "done", true)).toEqual({ type: "text", value: "done" });
    expect(
      completedCallOutput({ ok: true, screenshot: { ...screenshot, media_type: "text/html" } }, "t", true),
    ).toEqual({ type: "text", value: "t" });
  });

  it("treats Anthropic's and OpenAI's models as reading images, an OpenAI-compatible server not", () => {
    expect(takesImages({ provider: "anthropic" })).toBe(true);
    expect(takesImages({ provider: "openai" })).toBe(true);
    expect(takesImages({ provider: "openai-compatible" })).toBe(false);
  });
});
