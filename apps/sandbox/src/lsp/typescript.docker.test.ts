import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";

const GREET = 'export function greet(name: string): string {\n  return "hi " + name;\n}\n';
const MAIN =
  'import { greet } from "./greet";\n\nconst n: number = "x";\nexport const message = greet("you");\n';

/**
 * typescript-language-server as the agent's lsp_* tools reach it, in a workspace with no
 * tsconfig.json and no node_modules: the TypeScript baked into the image serves it.
 */
describe("the lsp_* tools on TypeScript and JavaScript", () => {
  let t: TestService;
  let id: string;
  let calls = 0;
  const run = (tool: string, args: Record<string, unknown>) =>
    t.service.daemons
      .connection(id)
      .request("tools.execute", { tool, args, sessionId: "ts", callId: `c${calls++}` });

  /**
   * Calls lsp_diagnostics until `expectation` holds. tsserver loads the project for seconds on a
   * busy machine (the tool then answers `fresh: false`, "call again") and reports syntax before
   * type errors; an agent calls again the same way.
   */
  const diagnosticsUntil = (path: string, expectation: (result: Record<string, unknown>) => void) => {
    const statuses: unknown[] = [];
    return vi.waitFor(
      async () => {
        const call = await run("lsp_diagnostics", { path });
        statuses.push(call.result.server_status);
        expectation(call.result);
        return { ...call, statuses };
      },
      { timeout: 90_000, interval: 250 },
    );
  };

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "ts-tools" })).id;
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "src/greet.ts", content: GREET });
    await t.api.files.write.mutate({ workspaceId: id, path: "src/main.ts", content: MAIN });
    await t.api.files.write.mutate({ workspaceId: id, path: "legacy.js", content: "const n: number = 1;\n" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("reports a type error in a .ts file of a workspace without a tsconfig", async () => {
    const { output, statuses } = await diagnosticsUntil("src/main.ts", (result) => {
      expect(result).toMatchObject({ ok: true, path: "src/main.ts", fresh: true });
      expect(result.diagnostics).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            severity: "error",
            message: "Type 'string' is not assignable to type 'number'.",
            range: expect.objectContaining({ start: { line: 2, character: 6 } }),
          }),
        ]),
      );
    });
    expect(statuses[0]).toBe("started");
    expect(output).toContain("src/main.ts:3:7: error: Type 'string' is not assignable to type 'number'.");
  });

  it("runs one tsserver for the project and downloads no type packages (the table's initialization options reach it)", async () => {
    // Every process's command line, as the workspace's own shell sees them.
    const { output } = await run("bash", {
      command: "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done",
    });
    const lines = output.split("\n");
    expect(lines.filter((l) => l.includes("tsserver.js"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("typingsInstaller"))).toEqual([]);
  });

  it("shows the type of an imported function on hover", async () => {
    const { result } = await run("lsp_hover", { path: "src/main.ts", line: 3, character: 23 });
    expect(result).toMatchObject({ ok: true, server_status: "running" });
    expect(result.contents).toContain("(alias) greet(name: string): string");
  });

  it("goes to the definition in the other file", async () => {
    const { result } = await run("lsp_definition", { path: "src/main.ts", line: 3, character: 23 });
    expect(result).toMatchObject({
      ok: true,
      location: {
        uri: "file:///workspace/src/greet.ts",
        range: { start: { line: 0, character: 16 } },
        path: "src/greet.ts",
        text: "export function greet(name: string): string {",
      },
    });
  });

  it("sees the agent's fix of the type error on the next call", async () => {
    expect((await run("read", { path: "src/main.ts" })).result.ok).toBe(true);
    const edit = await run("edit", {
      path: "src/main.ts",
      old_string: 'const n: number = "x";',
      new_string: "const n: number = 1;",
    });
    expect(edit.result.ok).toBe(true);
    const { result } = await run("lsp_diagnostics", { path: "src/main.ts" });
    expect(result).toMatchObject({ ok: true, server_status: "running", fresh: true });
    expect(result.diagnostics).not.toContainEqual(expect.objectContaining({ severity: "error" }));
  });

  it("reads a .js file as JavaScript, where a type annotation is an error", async () => {
    await diagnosticsUntil("legacy.js", (result) => {
      expect(result).toMatchObject({ ok: true, server_status: "running", fresh: true });
      expect(result.diagnostics).toEqual([
        expect.objectContaining({ message: "Type annotations can only be used in TypeScript files." }),
      ]);
    });
  });
});
