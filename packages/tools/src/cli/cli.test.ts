import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";

const bin = fileURLToPath(new URL("../../bin/coder-tools.mjs", import.meta.url));

function cli(args: string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({ "a.txt": "alpha\n" });
});
afterEach(() => ws.cleanup());

describe("coder-tools run", () => {
  it("runs one call and prints its result as one line of JSON", async () => {
    const { code, stdout } = await cli(["run", "--root", ws.root, "read", '{"path": "a.txt"}']);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, path: "a.txt", content: "alpha", total_lines: 1 });
  });

  it("exits 0 for a result that is not ok, and answers unavailable for agent tools", async () => {
    const missing = await cli(["run", "--root", ws.root, "read", '{"path": "nope.txt"}']);
    expect(missing.code).toBe(0);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: "not_found" } });
    const task = await cli(["run", "--root", ws.root, "task", '{"agent": "explore", "objective": "look"}']);
    expect(JSON.parse(task.stdout)).toMatchObject({ ok: false, error: { code: "unavailable" } });
  });

  it("answers not_installed for a language server that is missing, and still exits", async () => {
    ws.write("x.py", "def f(:\n");
    const config = JSON.stringify({
      lsp: {
        servers: [
          { language: "python", command: ["no-such-pylsp"], extensions: ["py"], install: "pip install it" },
        ],
      },
    });
    const { code, stdout, stderr } = await cli([
      "run",
      "--root",
      ws.root,
      "--config",
      config,
      "lsp_diagnostics",
      '{"path": "x.py"}',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, server_status: "not_installed" });
    expect(stderr).toContain("[LSP] python: no-such-pylsp not installed, run: pip install it");
  });

  it("runs JSON lines from stdin in one session, carrying read and todo state", async () => {
    const input = [
      { tool: "write", args: { path: "a.txt", content: "too early" } },
      { tool: "read", args: { path: "a.txt" } },
      { tool: "write", args: { path: "a.txt", content: "beta" } },
      "this is not json",
      {
        tool: "todowrite",
        args: { todos: [{ id: "1", content: "x", status: "in_progress", priority: "high" }] },
      },
      { tool: "todoread" },
    ]
      .map((line) => (typeof line === "string" ? line : JSON.stringify(line)))
      .join("\n");
    const { code, stdout } = await cli(["run", "--root", ws.root, "--session", "s1"], `${input}\n\n`);
    expect(code).toBe(0);
    const results = lines(stdout);
    expect(results.map((r) => r.ok)).toEqual([false, true, true, false, true, true]);
    expect(results[0].error.code).toBe("stale_file");
    expect(results[2]).toMatchObject({ operation: "updated" });
    expect(results[3].error).toMatchObject({
      code: "invalid_args",
      message: expect.stringContaining("line 4"),
    });
    expect(results[5]).toMatchObject({ session_id: "s1", count: 1, in_progress: 1 });
    expect(readFileSync(path.join(ws.root, "a.txt"), "utf8")).toBe("beta\n");
  });
});

describe("coder-tools list", () => {
  it("prints the tool definitions with their JSON Schema", async () => {
    const { code, stdout } = await cli(["list"]);
    expect(code).toBe(0);
    const definitions = JSON.parse(stdout) as { id: string; parameters: { type: string } }[];
    const read = definitions.find((d) => d.id === "read");
    expect(read?.parameters.type).toBe("object");
    expect(definitions.map((d) => d.id)).toContain("bash");
  });

  it("filters by agent", async () => {
    const ids = (JSON.parse((await cli(["list", "--agent", "plan"])).stdout) as { id: string }[]).map(
      (d) => d.id,
    );
    expect(ids).toContain("read");
    expect(ids).not.toContain("bash");
  });
});

describe("coder-tools with unusable arguments", () => {
  it.each([
    ["no --root", ["run", "read", "{}"]],
    ["a missing root", ["run", "--root", "/nonexistent/coder", "read", "{}"]],
    ["arguments that are not JSON", ["run", "--root", ".", "read", "{path"]],
    ["arguments that are not an object", ["run", "--root", ".", "read", "[1]"]],
    ["an unknown command", ["frobnicate"]],
    ["an unknown option", ["list", "--colour"]],
  ])("exits 2 for %s, with the usage on stderr", async (_case, args) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("Usage:");
  });
});
