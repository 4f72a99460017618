import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentServices } from "../framework/types";
import { createTestWorkspace, type TestWorkspace } from "../testing/workspace";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace({}, { experimental: { batch_tool: true, websearch: true } });
});
afterEach(() => ws.cleanup());

const services: Required<AgentServices> = {
  task: async (args) => ({ summary: `did ${args.objective}` }),
  question: async (args) => ({ answers: args.questions.map((q) => [q.options[0] ?? ""]) }),
  planExit: async () => ({ approved: true }),
  webfetch: async (args) => ({ url: args.url, content_type: "text/markdown", content: "# Page" }),
  websearch: async () => ({ results: [{ title: "t", url: "https://example.com" }] }),
  batch: async (args) => ({ results: args.tool_calls.map((c) => ({ tool: c.tool, ok: true })) }),
  preview: async (args) => ({
    url: `http://127.0.0.1:${args.port}${args.path}`,
    status: 200,
    title: "Shop",
    text: "Welcome",
    text_truncated: false,
    console_errors: [],
    failed_requests: [],
  }),
};

const calls: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ["task", { agent: "explore", objective: "find x" }, { agent: "explore", summary: "did find x" }],
  ["question", { questions: [{ question: "Which?", options: ["a", "b"] }] }, { answers: [["a"]] }],
  ["plan_exit", {}, { approved: true }],
  ["webfetch", { url: "https://example.com/doc" }, { url: "https://example.com/doc", content: "# Page" }],
  ["websearch", { query: "zod 4" }, { results: [{ title: "t", url: "https://example.com" }] }],
  [
    "batch",
    { tool_calls: [{ tool: "read", parameters: { path: "a" } }] },
    { results: [{ tool: "read", ok: true }] },
  ],
  ["preview", { port: 3000 }, { url: "http://127.0.0.1:3000/", status: 200, title: "Shop" }],
];

describe.each(calls)("%s", (tool, args, expected) => {
  it("answers unavailable when no agent runtime is there to run it", async () => {
    const { result, output } = await ws.call(tool, args);
    expect(result).toMatchObject({ ok: false, error: { code: "unavailable" } });
    expect(output).toContain("not available here");
  });

  it("hands the call to the runtime's runner when there is one", async () => {
    const { result } = await ws.call(tool, args, { services });
    expect(result).toMatchObject({ ok: true, ...expected });
  });
});

describe("agent tool arguments", () => {
  it("refuse an empty agent or objective for task", async () => {
    const { result } = await ws.call("task", { agent: " ", objective: "" }, { services });
    expect(result.error?.message).toContain("agent: name the sub-agent");
    expect(result.error?.message).toContain("objective: say what the sub-agent should do");
  });

  it("refuse a non-http address for webfetch", async () => {
    const { result } = await ws.call("webfetch", { url: "file:///etc/passwd" }, { services });
    expect(result.error?.code).toBe("invalid_args");
  });

  it("refuse a preview path that does not start with a single / (it could name another host)", async () => {
    for (const path of ["//evil.example/", "evil.example", "@evil.example"]) {
      const { result } = await ws.call("preview", { port: 3000, path }, { services });
      expect(result.error?.code).toBe("invalid_args");
    }
  });

  it("refuse nested batch calls and more than 10 calls", async () => {
    const nested = await ws.call("batch", { tool_calls: [{ tool: "batch", parameters: {} }] }, { services });
    expect(nested.result.error?.message).toContain("batch cannot call batch");
    const many = Array.from({ length: 11 }, () => ({ tool: "read", parameters: {} }));
    expect((await ws.call("batch", { tool_calls: many }, { services })).result.error?.message).toContain(
      "at most 10",
    );
  });

  it("turn an unusable call into a plain invalid_args answer through the invalid tool", async () => {
    const { result } = await ws.call("invalid", { tool: "read", error: "arguments are not JSON" });
    expect(result.error).toMatchObject({
      code: "invalid_args",
      message: expect.stringContaining("arguments are not JSON"),
    });
  });
});
