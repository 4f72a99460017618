import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { executeTool } from "../../framework/execute";
import { stopLspServers } from "../../lsp/shared";
import { fakePython, type LspTestWorkspace, lspWorkspace, missingPython } from "../../lsp/testing/fake-lsp";
import { lspDiagnosticsTool } from ".";

let ws: LspTestWorkspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});
afterAll(() => stopLspServers());

async function check(file: string) {
  if (!ws) throw new Error("no workspace");
  return executeTool(lspDiagnosticsTool, { path: file }, ws.ctx);
}

describe("lsp_diagnostics", () => {
  it("reports the problems in a file with 0-based ranges and 1-based text", async () => {
    ws = await lspWorkspace(({ pidFile }) => ({ servers: [fakePython({ pidFile })] }));
    await writeFile(path.join(ws.root, "a.py"), "x = 1\ny = ERROR\n  WARN here\n");
    const { result, output } = await check("a.py");
    expect(result).toMatchObject({ ok: true, path: "a.py", count: 2, fresh: true, server_status: "started" });
    expect(result.diagnostics).toEqual([
      {
        range: { start: { line: 1, character: 4 }, end: { line: 1, character: 9 } },
        severity: "error",
        message: "found ERROR",
        source: "fake",
      },
      {
        range: { start: { line: 2, character: 2 }, end: { line: 2, character: 6 } },
        severity: "warning",
        message: "found WARN",
        source: "fake",
      },
    ]);
    expect(output).toBe(
      "a.py: 2 problems (1 error, 1 warning)\na.py:2:5: error: found ERROR [fake]\na.py:3:3: warning: found WARN [fake]",
    );
  });

  it("sees an edit made since the last call, with the same server", async () => {
    ws = await lspWorkspace(({ pidFile }) => ({ servers: [fakePython({ pidFile })] }));
    const file = path.join(ws.root, "a.py");
    await writeFile(file, "ERROR\n");
    expect((await check("a.py")).result.count).toBe(1);
    await writeFile(file, "fixed\n");
    const after = await check("a.py");
    expect(after.result).toMatchObject({ ok: true, count: 0, fresh: true, server_status: "running" });
    expect(after.output).toBe("a.py: no problems");
    expect(await ws.starts()).toHaveLength(1);
  });

  it("pulls diagnostics when the server offers textDocument/diagnostic", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython({ pull: true })] }));
    await mkdir(path.join(ws.root, "pkg"));
    await writeFile(path.join(ws.root, "pkg/m.py"), "WARN\n");
    const { result } = await check("pkg/m.py");
    expect(result).toMatchObject({ ok: true, path: "pkg/m.py", count: 1, fresh: true });
  });

  it("stops waiting for a server that never reports and says the answer may be out of date", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython({ silent: true })], diagnostics_timeout_ms: 50 }));
    await writeFile(path.join(ws.root, "a.py"), "ERROR\n");
    const { result, output } = await check("a.py");
    expect(result).toMatchObject({ ok: true, count: 0, fresh: false });
    expect(output).toContain("had not finished checking");
  });

  it("says how to install a missing server and suggests grep meanwhile", async () => {
    ws = await lspWorkspace(() => ({ servers: [missingPython()] }));
    await writeFile(path.join(ws.root, "a.py"), "x = 1\n");
    const { result, output } = await check("a.py");
    expect(result).toMatchObject({
      ok: false,
      server_status: "not_installed",
      install_hint: "pip install python-lsp-server",
      error: { code: "unavailable" },
    });
    expect(result.suggestion).toContain("grep");
    expect(output).toContain(
      "coder-test-no-such-language-server, the python language server, is not installed",
    );
    expect(output).toContain("pip install python-lsp-server");
  });

  it("refuses a file type without a server, naming the ones that have one", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await writeFile(path.join(ws.root, "notes.txt"), "hello\n");
    const { result } = await check("notes.txt");
    expect(result).toMatchObject({ ok: false, server_status: "unsupported", error: { code: "unavailable" } });
    expect(result.error?.hint).toContain(".py (python)");
    expect(result.error?.hint).toContain(".sh .bash (bash)");
  });

  it("answers not_found for a missing file and is_directory for a folder", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await mkdir(path.join(ws.root, "src.py"));
    expect((await check("nope.py")).result.error?.code).toBe("not_found");
    expect((await check("src.py")).result.error?.code).toBe("is_directory");
  });

  it("refuses a path outside the workspace", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    expect((await check("../outside.py")).result.error?.code).toBe("permission_denied");
  });

  it("reports a broken lsp.servers setting instead of starting anything", async () => {
    ws = await lspWorkspace(() => ({ servers: [{ language: "Py!" } as never] }));
    await writeFile(path.join(ws.root, "a.py"), "x\n");
    const { result } = await check("a.py");
    expect(result).toMatchObject({ ok: false, error: { code: "unavailable" } });
    expect(result.error?.message).toContain("lsp.servers");
  });
});
