import { describe, expect, it } from "vitest";
import { viewerMayUse } from "./read-only";

describe("what a viewer's language-server connection may send", () => {
  it("reading requests and the editor's document sync", () => {
    for (const method of [
      "textDocument/hover",
      "textDocument/completion",
      "textDocument/didChange",
      "initialize",
    ]) {
      expect(viewerMayUse(method)).toBe(true);
    }
  });

  it("nothing that edits, runs, configures or that the list does not know", () => {
    for (const method of [
      "textDocument/rename",
      "workspace/executeCommand",
      "textDocument/formatting",
      "textDocument/didSave",
      "workspace/didChangeConfiguration",
      "pylsp/someExtension",
    ]) {
      expect(viewerMayUse(method)).toBe(false);
    }
  });
});
