import { describe, expect, it } from "vitest";
import { mainArgument, toolStatus, toolSummary } from "./tool-summary";

describe("a tool call's summary line", () => {
  it("names the tool, its main argument and its status", () => {
    expect(toolSummary({ tool: "read", input: { path: "src/a.ts" }, state: "completed" })).toBe(
      "read src/a.ts · done",
    );
    expect(toolSummary({ tool: "bash", input: { command: "npm test" }, state: "running" })).toBe(
      "bash npm test · running",
    );
    expect(toolSummary({ tool: "bash", input: { command: "rm -rf x" }, state: "waiting" })).toBe(
      "bash rm -rf x · waiting for you",
    );
  });

  it("says a call failed when its result is not ok, even though the call completed", () => {
    const part = { tool: "edit", input: { path: "a" }, state: "completed" as const, result: { ok: false } };
    expect(toolStatus(part)).toBe("error");
    expect(toolSummary(part)).toBe("edit a · failed");
  });

  it("shows the files a patch touches", () => {
    const unified = "--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/new.ts\n";
    expect(mainArgument("patch", { patch: unified })).toBe("x.ts, new.ts");
    const envelope =
      "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Add File: b.py\n+z\n*** End Patch";
    expect(mainArgument("apply_patch", { patch: envelope })).toBe("a.py, b.py");
  });

  it("names the port and path of the page a preview looked at", () => {
    expect(toolSummary({ tool: "preview", input: { port: 5173, path: "/cart" }, state: "completed" })).toBe(
      "preview :5173/cart · done",
    );
    expect(mainArgument("preview", { port: 3000 })).toBe(":3000/");
  });

  it("shortens a long command to one line", () => {
    const command = `echo one\n${"x".repeat(200)}`;
    const shown = mainArgument("bash", { command });
    expect(shown.startsWith("echo one x")).toBe(true);
    expect(shown.length).toBe(80);
    expect(shown.endsWith("…")).toBe(true);
  });

  it("falls back to the first text argument of an unknown tool, and to nothing without one", () => {
    expect(mainArgument("lsp_hover", { line: 3, file: "a.ts" })).toBe("a.ts");
    expect(mainArgument("todoread", {})).toBe("");
    expect(mainArgument("todoread", "not an object")).toBe("");
  });
});
