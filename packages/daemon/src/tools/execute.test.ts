import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createDefaultRegistry, type ToolContext, ToolError } from "@coder/tools";
import { afterEach, describe, expect, it } from "vitest";
import { CancellationTokenSource } from "vscode-jsonrpc/node";
import { startTestDaemon, type TestDaemon } from "../testing/harness";
import type { ToolOutcome, ToolRunner } from "./runner";

let daemon: TestDaemon | undefined;
afterEach(() => daemon?.stop());

/** A runner whose single behaviour is given per test; every call's context is recorded. */
function runnerFor(behaviour: (ctx: ToolContext, args: unknown) => Promise<ToolOutcome>) {
  const contexts: ToolContext[] = [];
  const runner: ToolRunner = {
    definitions: (filter) => [
      { id: `for-${filter?.agent}-${filter?.model}`, description: "d", parameters: {} },
    ],
    execute: (_tool, args, ctx) => {
      contexts.push(ctx);
      return behaviour(ctx, args);
    },
  };
  return { runner, contexts };
}

const ok = (fields: Record<string, unknown> = {}): ToolOutcome => ({
  result: { ok: true, ...fields },
  output: "ok",
});
const call = (callId: string, sessionId = "s1") => ({ tool: "t", args: {}, sessionId, callId });

describe("tools.list", () => {
  it("returns the registry's definitions for the agent and model asked about", async () => {
    daemon = await startTestDaemon({ runner: runnerFor(async () => ok()).runner });
    const { tools } = await daemon.request("tools.list", { agent: "plan", model: "gpt-5" });
    expect(tools.map((t) => t.id)).toEqual(["for-plan-gpt-5"]);
  });
});

describe("tools.execute", () => {
  it("runs the tool in the workspace with the call's ids and answers with its result and output", async () => {
    const { runner, contexts } = runnerFor(async (_ctx, args) => ok({ echoed: args }));
    daemon = await startTestDaemon({ runner });
    const answer = await daemon.request("tools.execute", { ...call("c1"), args: { path: "a.txt" } });
    expect(answer).toEqual({ result: { ok: true, echoed: { path: "a.txt" } }, output: "ok" });
    expect(contexts[0]).toMatchObject({ sessionId: "s1", callId: "c1", workspaceRoot: daemon.root });
    expect(contexts[0]?.spillDir).toBe(`${daemon.root}-spill`);
  });

  it("keeps session state between calls of one session, apart from other sessions", async () => {
    const { runner, contexts } = runnerFor(async (ctx) => {
      ctx.session.files.set(`/seen-by-${ctx.callId}`, { mtimeMs: 1, size: 1 });
      return ok();
    });
    daemon = await startTestDaemon({ runner });
    await daemon.request("tools.execute", call("c1", "a"));
    await daemon.request("tools.execute", call("c2", "a"));
    await daemon.request("tools.execute", call("c3", "b"));
    expect(contexts[1]?.session).toBe(contexts[0]?.session);
    expect([...(contexts[1]?.session.files.keys() ?? [])]).toEqual(["/seen-by-c1", "/seen-by-c2"]);
    expect([...(contexts[2]?.session.files.keys() ?? [])]).toEqual(["/seen-by-c3"]);
  });

  it("streams ctx.metadata as tools.progress, the last state arriving before the result", async () => {
    const { runner } = runnerFor(async (ctx) => {
      for (const output of ["a", "ab", "abc"]) ctx.metadata({ output });
      return ok();
    });
    daemon = await startTestDaemon({ runner });
    await daemon.request("tools.execute", call("c1"));
    const progress = daemon.notifications.filter((n) => n.method === "tools.progress").map((n) => n.params);
    expect(progress[0]).toEqual({ callId: "c1", update: { output: "a" } });
    expect(progress.at(-1)).toEqual({ callId: "c1", update: { output: "abc" } });
  });

  it("aborts the tool when the client cancels the request", async () => {
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { runner } = runnerFor(
      (ctx) =>
        new Promise((resolve) => {
          ctx.abort.addEventListener("abort", () =>
            resolve({ result: { ok: false, error: { code: "aborted", message: "cancelled" } }, output: "" }),
          );
          started();
        }),
    );
    daemon = await startTestDaemon({ runner });
    const source = new CancellationTokenSource();
    const answer = daemon.request("tools.execute", call("c1"), source.token);
    await running;
    source.cancel();
    expect((await answer).result.error?.code).toBe("aborted");
  });

  it("rejects permission requests: the service decides them before calling", async () => {
    const { runner } = runnerFor(async (ctx) => {
      try {
        await ctx.ask({ permission: "bash", patterns: ["rm *"], title: "rm -rf x" });
        return ok();
      } catch (error) {
        return ok({ rejected: error instanceof ToolError && error.code === "rejected" });
      }
    });
    daemon = await startTestDaemon({ runner });
    expect((await daemon.request("tools.execute", call("c1"))).result).toEqual({ ok: true, rejected: true });
  });

  it("answers io_error when the registry itself throws, and keeps serving", async () => {
    const logs: string[] = [];
    const { runner } = runnerFor(async () => {
      throw new Error("registry bug");
    });
    daemon = await startTestDaemon({ runner, logs });
    const answer = await daemon.request("tools.execute", call("c1"));
    expect(answer.result).toMatchObject({ ok: false, error: { code: "io_error" } });
    expect(logs.join("\n")).toMatch(/registry bug/);
    expect(await daemon.request("ping", {})).toMatchObject({ pid: process.pid });
  });

  it("refuses a call without a session or call id as invalid params", async () => {
    daemon = await startTestDaemon();
    expect((await daemon.failure("tools.execute", { tool: "t", args: {} })).code).toBe(-32602);
  });
});

describe("tools.execute with the built-in tools", () => {
  it("lists them and runs one in the workspace", async () => {
    daemon = await startTestDaemon({ runner: createDefaultRegistry() });
    const { tools } = await daemon.request("tools.list", { agent: "build" });
    expect(tools.map((t) => t.id)).toEqual(expect.arrayContaining(["read", "bash"]));
    await writeFile(path.join(daemon.root, "notes.txt"), "remember the milk\n");
    const answer = await daemon.request("tools.execute", {
      ...call("c1"),
      tool: "read",
      args: { path: "notes.txt" },
    });
    expect(answer.result.ok).toBe(true);
    expect(answer.output).toContain("remember the milk");
  });

  it("ends a long bash command promptly with aborted when the request is cancelled", async () => {
    daemon = await startTestDaemon({ runner: createDefaultRegistry() });
    const source = new CancellationTokenSource();
    const answer = daemon.request(
      "tools.execute",
      { ...call("c1"), tool: "bash", args: { command: "echo started; sleep 30" } },
      source.token,
    );
    // Cancel once the command is surely running: its first output has streamed back.
    await daemon.until(
      "tools.progress",
      (p) => p.callId === "c1" && String(p.update.stdout).includes("started"),
    );
    source.cancel();
    expect((await answer).result.error?.code).toBe("aborted");
  });
});

describe("tools.spill", () => {
  it("keeps a cut output in the spill folder, where read finds it, and answers its path", async () => {
    daemon = await startTestDaemon({ runner: createDefaultRegistry({}) });
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n");
    const { path: saved } = await daemon.request("tools.spill", { callId: "prt_1", content: text });
    expect(saved).toBe(path.join(`${daemon.root}-spill`, "prt_1.txt"));
    const { result } = await daemon.request("tools.execute", {
      ...call("c1"),
      tool: "read",
      args: { path: saved, offset: 2999, limit: 2 },
    });
    expect(result).toMatchObject({ ok: true, content: "line 2999\nline 3000" });
  });
});
