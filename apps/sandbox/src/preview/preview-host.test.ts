import { describe, expect, it } from "vitest";
import { isPreviewOrigin, previewHostOf } from "./preview-host";

const ID = "abcdefghijkl0123";

describe("which host names are preview origins", () => {
  it("reads the port and workspace of an exact preview host, with or without a port", () => {
    expect(previewHostOf(`3000-${ID}.localhost:7070`, "localhost")).toEqual({ workspaceId: ID, port: 3000 });
    expect(previewHostOf(`5173-${ID}.PREVIEW.example.com`, "preview.example.com")).toEqual({
      workspaceId: ID,
      port: 5173,
    });
  });

  it("answers 'misdirected' for any other name under the preview domain", () => {
    for (const host of [
      "localhost.localhost",
      `03000-${ID}.localhost`,
      `0-${ID}.localhost`,
      `65536-${ID}.localhost`,
      `3000-${ID}.x.localhost`,
      `3000-short.localhost`,
      `3000-${"a".repeat(33)}.localhost`,
      `.localhost`,
    ]) {
      expect([host, previewHostOf(host, "localhost")]).toEqual([host, "misdirected"]);
    }
  });

  it("leaves names outside the preview domain to the IDE's own host check", () => {
    for (const host of [
      "localhost:7070",
      "127.0.0.1",
      `3000-${ID}.localhost.evil.example`,
      undefined,
      "[::1]:80",
    ]) {
      expect(previewHostOf(host, "localhost")).toBeNull();
    }
  });

  it("recognises an Origin header from a preview origin", () => {
    expect(isPreviewOrigin(`http://3000-${ID}.localhost:7070`, "localhost")).toBe(true);
    expect(isPreviewOrigin("http://evil.localhost:7070", "localhost")).toBe(true);
    expect(isPreviewOrigin("http://localhost:7070", "localhost")).toBe(false);
    expect(isPreviewOrigin("null", "localhost")).toBe(false);
    expect(isPreviewOrigin(undefined, "localhost")).toBe(false);
  });
});
