import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";
import { createDefaultRegistry } from "../tools/builtin";
import { createRegistry } from "./registry";
import { defineTool, fail, type Tool, ToolError } from "./types";
import { ToolDefinitionError } from "./validate";

function echoTool(overrides: Partial<Tool> = {}): Tool {
  const base = defineTool({
    id: "echo",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: descriptions are templates with ${var} placeholders
    description: "Echoes the message in ${workspace}; at most ${limit} characters.",
    parameters: z.object({
      message: z.string().describe("what to echo"),
      times: z.number().int().optional(),
    }),
    facts: { runsIn: "workspace", reads: "none", changes: "none" },
    templateVars: () => ({ limit: 42 }),
    execute: async (args) => ({ ok: true, message: args.message }),
    format: (result) => String(result.message),
  });
  return { ...base, ...overrides } as Tool;
}

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace();
});
afterEach(() => ws.cleanup());

function registrationError(tool: Tool, registry = createRegistry()): ToolDefinitionError {
  try {
    registry.register(tool);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error("register accepted the tool");
}

describe("register", () => {
  it("refuses an empty name", () => {
    expect(registrationError(echoTool({ id: " " })).kind).toBe("empty_name");
  });

  it("refuses a name models cannot call", () => {
    expect(registrationError(echoTool({ id: "read file" })).kind).toBe("invalid_name");
  });

  it("refuses an empty description", () => {
    expect(registrationError(echoTool({ description: "  " })).kind).toBe("empty_description");
  });

  it("refuses a required property that the schema does not define", () => {
    const parameters = z.object({ a: z.string() }).meta({ required: ["a", "b"] });
    const error = registrationError(echoTool({ parameters }));
    expect(error.kind).toBe("required_not_defined");
    expect(error.message).toContain('"b"');
  });

  it("refuses parameters that are not an object", () => {
    expect(registrationError(echoTool({ parameters: z.string() })).kind).toBe("invalid_parameters");
  });

  it("refuses a duplicate name", () => {
    const registry = createRegistry();
    registry.register(echoTool());
    expect(registrationError(echoTool(), registry).kind).toBe("duplicate_name");
  });

  it("adds and removes tools at run time", async () => {
    const registry = createRegistry();
    registry.register(echoTool());
    expect(registry.ids()).toEqual(["echo"]);
    expect((await registry.execute("echo", { message: "hi" }, ws.context())).output).toBe("hi");
    expect(registry.unregister("echo")).toBe(true);
    expect((await registry.execute("echo", { message: "hi" }, ws.context())).result.error?.code).toBe(
      "unknown_tool",
    );
  });
});

describe("definitions", () => {
  it("gives JSON Schema parameters and renders the description's placeholders", () => {
    const registry = createRegistry({ workspaceRoot: "/workspace" });
    registry.register(echoTool());
    const [definition] = registry.definitions();
    expect(definition?.description).toBe("Echoes the message in /workspace; at most 42 characters.");
    expect(definition?.parameters).toEqual({
      type: "object",
      properties: { message: { type: "string", description: "what to echo" }, times: { type: "integer" } },
      required: ["message"],
    });
  });

  it("leaves no placeholder unfilled in any built-in description", () => {
    for (const definition of createDefaultRegistry({
      experimental: { batch_tool: true, websearch: true },
    }).definitions()) {
      expect(definition.description, definition.id).not.toMatch(/\$\{/);
    }
  });

  const ids = (filter: Parameters<ReturnType<typeof createRegistry>["definitions"]>[0], config = {}) =>
    createDefaultRegistry(config)
      .definitions(filter)
      .map((d) => d.id);

  it("offers the build agent every tool except plan_exit, and never invalid", () => {
    const build = ids({ agent: "build" });
    expect(build).toEqual(expect.arrayContaining(["read", "write", "bash", "todowrite", "task", "skill"]));
    expect(build).not.toContain("plan_exit");
    expect(build).not.toContain("invalid");
  });

  it("keeps the plan agent read-only", () => {
    const plan = ids({ agent: "plan" });
    expect(plan).toEqual(
      expect.arrayContaining(["read", "list", "glob", "grep", "todoread", "todowrite", "skill"]),
    );
    expect(plan).toContain("plan_exit");
    expect(plan).toEqual(expect.arrayContaining(["lsp_diagnostics", "lsp_definition", "lsp_hover"]));
    for (const writer of ["write", "edit", "patch", "apply_patch", "bash", "task"])
      expect(plan).not.toContain(writer);
  });

  it("gives the explore agent read-only tools without todos", () => {
    const explore = ids({ agent: "explore" });
    expect(explore).toEqual(expect.arrayContaining(["read", "list", "glob", "grep"]));
    for (const other of ["write", "bash", "todoread", "todowrite"]) expect(explore).not.toContain(other);
  });

  it("lets the configuration set an agent's tools", () => {
    expect(ids({ agent: "reviewer" }, { agents: { reviewer: ["read", "grep"] } })).toEqual(["read", "grep"]);
  });

  it("narrows further with an allow-list", () => {
    expect(ids({ agent: "build", allowed: ["read", "lsp_*", "bash"] })).toEqual([
      "read",
      "bash",
      "lsp_diagnostics",
      "lsp_definition",
      "lsp_hover",
    ]);
  });

  it("swaps write for apply_patch on GPT-family models only", () => {
    const registry = createRegistry();
    for (const id of ["edit", "write", "apply_patch"]) registry.register(echoTool({ id }));
    const offered = (model?: string) => registry.definitions({ model }).map((d) => d.id);
    expect(offered("gpt-5")).toEqual(["apply_patch"]);
    expect(offered("openai/o3-mini")).toEqual(["apply_patch"]);
    expect(offered("gpt-5-codex")).toEqual(["apply_patch"]);
    expect(offered("claude-sonnet-4-5")).toEqual(["edit", "write"]);
    expect(offered(undefined)).toEqual(["edit", "write"]);
  });

  it("gives the built-in apply_patch to GPT-family models and edit/write to the others", () => {
    const gpt = ids({ model: "gpt-5" });
    expect(gpt).toContain("apply_patch");
    expect(gpt).not.toContain("edit");
    expect(gpt).not.toContain("write");
    const claude = ids({ model: "claude-sonnet-4-5" });
    expect(claude).toEqual(expect.arrayContaining(["edit", "write", "patch"]));
    expect(claude).not.toContain("apply_patch");
  });

  it("offers batch and websearch only when their experimental flag is on, websearch only with a search key", () => {
    expect(ids({})).not.toContain("batch");
    expect(ids({})).not.toContain("websearch");
    const flagged = ids({}, { experimental: { batch_tool: true, websearch: true } });
    expect(flagged).toContain("batch");
    expect(flagged).not.toContain("websearch");
    expect(ids({}, { experimental: { websearch: true }, searchConfigured: true })).toContain("websearch");
  });

  it("offers webfetch unless the deployment switched it off", () => {
    expect(ids({})).toContain("webfetch");
    expect(ids({}, { webfetch: false })).not.toContain("webfetch");
  });
});

describe("approvalRequest", () => {
  const registry = createDefaultRegistry();

  it("names the permission, patterns and a title", () => {
    expect(registry.approvalRequest("bash", { command: "rm -rf build", description: "clean" })).toEqual({
      permission: "bash",
      patterns: ["rm -rf build"],
      title: "clean",
    });
    expect(registry.approvalRequest("write", { path: "a.txt", content: "" })?.permission).toBe("edit");
  });

  it("returns nothing for tools that need no approval, unknown tools and unusable arguments", () => {
    expect(registry.approvalRequest("todoread", {})).toBeUndefined();
    expect(registry.approvalRequest("nope", {})).toBeUndefined();
    expect(registry.approvalRequest("bash", { command: 3 })).toBeUndefined();
  });
});

describe("execute", () => {
  it("answers unknown_tool for a name it does not know, listing the tools", async () => {
    const { result, output } = await createDefaultRegistry().execute("rm", {}, ws.context());
    expect(result).toMatchObject({ ok: false, error: { code: "unknown_tool" } });
    expect(result.error?.hint).toContain("read");
    expect(output).toContain("Error (unknown_tool)");
  });

  it("answers invalid_args naming the field and what was expected", async () => {
    const registry = createRegistry();
    registry.register(echoTool());
    const missing = await registry.execute("echo", {}, ws.context());
    expect(missing.result.error).toMatchObject({ code: "invalid_args" });
    expect(missing.result.error?.message).toContain("message: required (expected string)");
    const wrong = await registry.execute("echo", { message: "x", times: "2" }, ws.context());
    expect(wrong.result.error?.message).toContain("times: expected number, received string");
  });

  it("turns a thrown ToolError into its code, hint and extra fields", async () => {
    const registry = createRegistry();
    registry.register(
      echoTool({
        execute: async () => {
          throw new ToolError("unavailable", "no server", "install it", { server_status: "not_installed" });
        },
      }),
    );
    const { result } = await registry.execute("echo", { message: "x" }, ws.context());
    expect(result).toEqual({
      ok: false,
      server_status: "not_installed",
      error: { code: "unavailable", message: "no server", hint: "install it" },
    });
  });

  it("turns any other exception into io_error", async () => {
    const registry = createRegistry();
    registry.register(
      echoTool({
        execute: async () => {
          throw new Error("disk on fire");
        },
      }),
    );
    const { result } = await registry.execute("echo", { message: "x" }, ws.context());
    expect(result.error).toEqual({ code: "io_error", message: "disk on fire" });
  });

  it("answers aborted when the call is cancelled, even if the tool ignores the signal", async () => {
    const registry = createRegistry();
    registry.register(echoTool({ execute: () => new Promise(() => {}) }));
    const controller = new AbortController();
    const pending = registry.execute("echo", { message: "x" }, ws.context({ abort: controller.signal }));
    controller.abort();
    expect((await pending).result.error?.code).toBe("aborted");
  });

  it("answers aborted without running when the signal is already aborted", async () => {
    let ran = false;
    const registry = createRegistry();
    registry.register(
      echoTool({
        execute: async () => {
          ran = true;
          return { ok: true };
        },
      }),
    );
    const { result } = await registry.execute(
      "echo",
      { message: "x" },
      ws.context({ abort: AbortSignal.abort() }),
    );
    expect(result.error?.code).toBe("aborted");
    expect(ran).toBe(false);
  });

  it("formats failures the tool returns itself with its formatter, or plainly without one", async () => {
    const failing = async () => fail("conflict", "two matches");
    const custom = createRegistry();
    custom.register(echoTool({ execute: failing, format: (r) => `custom ${r.error?.code}` }));
    expect((await custom.execute("echo", { message: "x" }, ws.context())).output).toBe("custom conflict");
    const plain = createRegistry();
    plain.register(echoTool({ execute: failing, format: undefined }));
    expect((await plain.execute("echo", { message: "x" }, ws.context())).output).toBe(
      "Error (conflict): two matches",
    );
  });

  it("cuts long output for the model and spills the full text outside the workspace", async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n");
    const registry = createRegistry();
    registry.register(echoTool());
    const { result, output } = await registry.execute(
      "echo",
      { message: long },
      ws.context({ callId: "call/1" }),
    );
    expect(result.message).toBe(long);
    expect(output.split("\n").length).toBeLessThan(2010);
    expect(output).toContain("line 2000\n");
    expect(output).not.toContain("line 2001\n");
    const spilled = `${ws.spillDir}/call_1.txt`;
    expect(output).toContain(spilled);
    expect(output).toMatch(/read .*offset.*grep/s);
    expect(readFileSync(spilled, "utf8")).toBe(long);
  });

  it("leaves output alone for tools that bound it themselves", async () => {
    const long = "x\n".repeat(3000);
    const registry = createRegistry();
    registry.register(echoTool({ ownsTruncation: true }));
    const { output } = await registry.execute("echo", { message: long }, ws.context({ callId: "own" }));
    expect(output).toBe(long);
    expect(existsSync(`${ws.spillDir}/own.txt`)).toBe(false);
  });
});

describe("prompt", () => {
  const registry = createRegistry();
  registry.register(echoTool({ description: 'Says <hello> & "bye"' }));
  const definitions = registry.definitions();

  it("renders XML with escaped text and the calling convention", () => {
    const xml = registry.prompt(definitions, "xml");
    expect(xml).toContain('<tool name="echo">');
    expect(xml).toContain("<description>Says &lt;hello&gt; &amp; &quot;bye&quot;</description>");
    expect(xml).toContain("<tool_call name=");
  });

  it("renders JSON that parses back to the definitions", () => {
    const json = registry.prompt(definitions, "json");
    expect(JSON.parse(json.slice(json.indexOf("\n[") + 1))).toEqual(definitions);
  });
});
