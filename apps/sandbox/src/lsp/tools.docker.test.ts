import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";

const PYTHON =
  'import os\n\ndef greet(name: str) -> str:\n    """Say hello."""\n    return "hi " + name\n\ngreet(undefined_name)\n';

/** The lsp_* tools as the agent runs them: through the daemon, with the servers inside the container. */
describe("the lsp_* tools in a workspace", () => {
  let t: TestService;
  let id: string;
  let calls = 0;
  const run = (tool: string, args: Record<string, unknown>) =>
    t.service.daemons
      .connection(id)
      .request("tools.execute", { tool, args, sessionId: "lsp", callId: `c${calls++}` });

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "lsp-tools" })).id;
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "greet.py", content: PYTHON });
    await t.api.files.write.mutate({
      workspaceId: id,
      path: "run.sh",
      content: '#!/bin/sh\nsay() { echo "$1"; }\nsay hi\n',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("reports pylsp's diagnostics for a Python file, starting the server on demand", async () => {
    const { result, output } = await run("lsp_diagnostics", { path: "greet.py" });
    expect(result).toMatchObject({ ok: true, path: "greet.py", server_status: "started", fresh: true });
    expect(result.diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: "error",
          message: "undefined name 'undefined_name'",
          source: "pyflakes",
        }),
        expect.objectContaining({ severity: "warning", message: "'os' imported but unused" }),
      ]),
    );
    expect(output).toContain("greet.py:7:7: error: undefined name 'undefined_name' [pyflakes]");
  });

  it("sees the agent's edit on the next call", async () => {
    const read = await run("read", { path: "greet.py" });
    expect(read.result.ok).toBe(true);
    const edit = await run("edit", {
      path: "greet.py",
      old_string: "greet(undefined_name)",
      new_string: 'greet("you")',
    });
    expect(edit.result.ok).toBe(true);
    const { result } = await run("lsp_diagnostics", { path: "greet.py" });
    expect(result).toMatchObject({ ok: true, server_status: "running", fresh: true, count: 1 });
  });

  it("hovers and goes to the definition in Python, with 0-based positions", async () => {
    const hover = await run("lsp_hover", { path: "greet.py", line: 6, character: 1 });
    expect(hover.result).toMatchObject({ ok: true, server_status: "running" });
    expect(hover.result.contents).toContain("greet(name: str) -> str");
    const definition = await run("lsp_definition", { path: "greet.py", line: 6, character: 1 });
    expect(definition.result).toMatchObject({
      ok: true,
      location: {
        uri: "file:///workspace/greet.py",
        range: { start: { line: 2, character: 4 } },
        path: "greet.py",
        text: "def greet(name: str) -> str:",
      },
    });
  });

  it("hovers over a shell function with bash-language-server", async () => {
    const { result } = await run("lsp_hover", { path: "run.sh", line: 2, character: 1 });
    expect(result).toMatchObject({ ok: true, server_status: "started" });
    expect(result.contents).toContain("say");
  });
});
