import { describe, expect, it } from "vitest";
import { subagentSession, toolBody } from "./tool-body";

const diff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n";

describe("a tool card's body", () => {
  it("shows the diff an edit or write made", () => {
    const body = toolBody({ tool: "edit", input: {}, state: "completed", result: { ok: true, diff } });
    expect(body).toEqual({ kind: "diff", diff });
  });

  it("shows a patch call's own patch when its result has no diff", () => {
    const body = toolBody({
      tool: "patch",
      input: { patch: diff },
      state: "completed",
      result: { ok: true },
    });
    expect(body).toEqual({ kind: "diff", diff });
  });

  it("streams a running command's output from its progress, then shows the result's", () => {
    const running = toolBody({ tool: "bash", input: {}, state: "running", progress: { stdout: "line1\n" } });
    expect(running).toEqual({ kind: "output", text: "line1\n" });
    const done = toolBody({
      tool: "bash",
      input: {},
      state: "completed",
      result: { ok: false, exit_code: 2, stdout: "out", stderr: "bad" },
    });
    expect(done).toEqual({ kind: "output", text: "out\nbad\n[exit code 2]" });
  });

  it("numbers the lines a read returned from where the read started", () => {
    const body = toolBody({
      tool: "read",
      input: {},
      state: "completed",
      result: { ok: true, content: "a\nb\n", start_line: 10 },
    });
    expect(body).toEqual({
      kind: "lines",
      lines: [
        { number: 10, text: "a" },
        { number: 11, text: "b" },
      ],
    });
  });

  it("lists grep's matches", () => {
    const matches = [{ path: "a.ts", line: 3, text: "TODO" }];
    expect(toolBody({ tool: "grep", input: {}, state: "completed", result: { ok: true, matches } })).toEqual({
      kind: "matches",
      matches,
    });
  });

  it("shows the screenshot a preview took above the page's text, and nothing but a PNG", () => {
    const screenshot = { media_type: "image/png", width: 1280, height: 800, data: "iVBORw0KGgo=" };
    const result = { ok: true, title: "Shop", screenshot };
    expect(
      toolBody({ tool: "preview", input: {}, state: "completed", result, output: "Title: Shop" }),
    ).toEqual({
      kind: "screenshot",
      src: "data:image/png;base64,iVBORw0KGgo=",
      width: 1280,
      height: 800,
      text: "Title: Shop",
    });
    for (const forged of [
      { ...screenshot, media_type: "image/svg+xml" },
      { ...screenshot, data: 'x" onerror="alert(1)' },
    ]) {
      const body = toolBody({
        tool: "preview",
        input: {},
        state: "completed",
        result: { ok: true, screenshot: forged },
        output: "t",
      });
      expect(body).toEqual({ kind: "output", text: "t" });
    }
  });

  it("says plainly why a call failed", () => {
    const result = {
      ok: false,
      error: { code: "not_found" as const, message: "a.py does not exist", hint: "did you mean b.py?" },
    };
    expect(toolBody({ tool: "read", input: {}, state: "completed", result })).toEqual({
      kind: "error",
      message: "a.py does not exist",
      hint: "did you mean b.py?",
    });
    expect(toolBody({ tool: "read", input: {}, state: "error", output: "aborted" })).toEqual({
      kind: "error",
      message: "aborted",
    });
  });

  it("shows nothing for a call that has not finished, and the model's text for other tools", () => {
    expect(toolBody({ tool: "edit", input: {}, state: "pending" })).toEqual({ kind: "none" });
    expect(
      toolBody({ tool: "list", input: {}, state: "completed", result: { ok: true }, output: "a/\nb" }),
    ).toEqual({
      kind: "output",
      text: "a/\nb",
    });
  });
});

describe("a task card", () => {
  it("links to the sub-agent's session once the runtime reports it", () => {
    expect(subagentSession({ tool: "task", progress: { sessionId: "ses_child123" } })).toBe("ses_child123");
    expect(subagentSession({ tool: "task", progress: undefined })).toBeUndefined();
    expect(subagentSession({ tool: "bash", progress: { sessionId: "ses_child123" } })).toBeUndefined();
  });
});
