import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { executeTool } from "../../framework/execute";
import { stopLspServers } from "../../lsp/shared";
import { fakePython, type LspTestWorkspace, lspWorkspace, missingPython } from "../../lsp/testing/fake-lsp";
import { lspDefinitionTool } from ".";

let ws: LspTestWorkspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});
afterAll(() => stopLspServers());

const SOURCE = "import os\n\ndef greet(name):\n    return name\n\ngreet('a')\n";

async function definition(args: Record<string, unknown>) {
  if (!ws) throw new Error("no workspace");
  return executeTool(lspDefinitionTool, args, ws.ctx);
}

describe("lsp_definition", () => {
  it("finds where the symbol at a 0-based position is defined, with the definition's line", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await writeFile(path.join(ws.root, "a.py"), SOURCE);
    const { result, output } = await definition({ path: "a.py", line: 5, character: 2 });
    expect(result).toMatchObject({
      ok: true,
      server_status: "started",
      location: {
        uri: expect.stringMatching(/^file:\/\/.*\/a\.py$/),
        range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } },
        path: "a.py",
        text: "def greet(name):",
      },
    });
    expect(output).toBe("Defined at a.py:3:5: def greet(name):");
  });

  it("answers a null location when nothing is defined there", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await writeFile(path.join(ws.root, "a.py"), SOURCE);
    const { result, output } = await definition({ path: "a.py", line: 1, character: 0 });
    expect(result).toMatchObject({ ok: true, location: null });
    expect(output).toContain("No definition found");
  });

  it("refuses a position past the end of the file or line, explaining 0-based positions", async () => {
    ws = await lspWorkspace(() => ({ servers: [fakePython()] }));
    await writeFile(path.join(ws.root, "a.py"), SOURCE);
    const pastEnd = await definition({ path: "a.py", line: 7, character: 0 });
    expect(pastEnd.result.error?.code).toBe("invalid_args");
    expect(pastEnd.result.error?.message).toContain("has 7 lines");
    const pastLine = await definition({ path: "a.py", line: 0, character: 10 });
    expect(pastLine.result.error?.code).toBe("invalid_args");
    expect((await definition({ path: "a.py", line: -1, character: 0 })).result.error?.code).toBe(
      "invalid_args",
    );
  });

  it("says how to install a missing server and suggests grep for the symbol", async () => {
    ws = await lspWorkspace(() => ({ servers: [missingPython()] }));
    await writeFile(path.join(ws.root, "a.py"), SOURCE);
    const { result } = await definition({ path: "a.py", line: 5, character: 0 });
    expect(result).toMatchObject({
      ok: false,
      server_status: "not_installed",
      install_hint: "pip install python-lsp-server",
      error: { code: "unavailable" },
    });
    expect(result.error?.hint).toMatch(/grep.*defined/);
  });
});
