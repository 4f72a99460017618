import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { executeTool } from "../../framework/execute";
import { stopLspServers } from "../../lsp/shared";
import { fakePython, type LspTestWorkspace, lspWorkspace, missingPython } from "../../lsp/testing/fake-lsp";
import { lspHoverTool } from ".";

let ws: LspTestWorkspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});
afterAll(() => stopLspServers());

async function hover(args: Record<string, unknown>) {
  if (!ws) throw new Error("no workspace");
  return executeTool(lspHoverTool, args, ws.ctx);
}

describe("lsp_hover", () => {
  it("returns what the server says about the symbol at the position, as Markdown", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await writeFile(path.join(ws.root, "a.py"), "value = compute(1)\n");
    const { result, output } = await hover({ path: "a.py", line: 0, character: 10 });
    expect(result).toEqual({ ok: true, contents: "`compute` at 0:10", server_status: "started" });
    expect(output).toBe("`compute` at 0:10");
  });

  it("answers empty contents where the server has nothing to say", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await writeFile(path.join(ws.root, "a.py"), "nothing\n");
    const { result, output } = await hover({ path: "a.py", line: 0, character: 1 });
    expect(result).toMatchObject({ ok: true, contents: "" });
    expect(output).toContain("No information at that position");
  });

  it("says how to install a missing server and suggests reading the source", async () => {
    ws = await lspWorkspace(() => ({ servers: [missingPython()] }));
    await writeFile(path.join(ws.root, "a.py"), "x\n");
    const { result } = await hover({ path: "a.py", line: 0, character: 0 });
    expect(result).toMatchObject({
      ok: false,
      server_status: "not_installed",
      install_hint: "pip install python-lsp-server",
      error: { code: "unavailable" },
    });
    expect(result.suggestion).toContain("read the source");
  });

  it("answers after the server crashed mid-call, from a restarted server", async () => {
    ws = await lspWorkspace(({ crashFile }) => ({ servers: [fakePython({ crashFile })] }));
    await writeFile(ws.crashFile, "crash on the next hover");
    await writeFile(path.join(ws.root, "a.py"), "value\n");
    const { result } = await hover({ path: "a.py", line: 0, character: 0 });
    expect(result).toEqual({ ok: true, contents: "`value` at 0:0", server_status: "restarted" });
  });
});
