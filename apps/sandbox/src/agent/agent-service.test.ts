import type { ToolPart } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/testing/test-database";
import { ServiceError } from "../errors/service-error";
import { type AgentFixture, isType, MODEL, startAgentFixture } from "./testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

const parts = async (sessionId: string) => (await f.agent.get(sessionId)).messages.flatMap((m) => m.parts);

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error("expected a refusal (a ServiceError)");
}

describe.each(DIALECTS)("on %s", (dialect) => {
  describe("a prompt", () => {
    it("is answered with streamed text that ends up in the session", async () => {
      f = await startAgentFixture({
        dialect,
        script: [{ text: ["Hel", "lo ", "there"], reasoning: ["thinking"] }],
      });
      const session = await f.newSession();
      const turn = await f.run(session.id, "Say hello");
      expect(turn.status).toBe("done");
      const detail = await f.agent.get(session.id);
      expect(detail.session.title).toBe("Say hello");
      expect(detail.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      const assistant = detail.messages[1]?.parts ?? [];
      expect(assistant.map((p) => p.type)).toEqual(["step-start", "reasoning", "text", "step-finish"]);
      expect(assistant.find((p) => p.type === "text")).toMatchObject({ text: "Hello there" });
      expect(detail.turn).toBeNull();
      const request = f.model.requests[0]?.body;
      expect(request?.model).toBe("scripted");
      expect(request?.messages.at(-1)).toMatchObject({ role: "user", content: "Say hello" });
      expect(request?.tools?.map((t) => t.function.name)).toContain("read");
    });

    it("carries the conversation into the next prompt", async () => {
      f = await startAgentFixture({ dialect, script: [{ text: "Four." }, { text: "Eight." }] });
      const session = await f.newSession();
      await f.run(session.id, "2+2?");
      await f.run(session.id, "double it");
      const roles = f.model.requests[1]?.body.messages.map((m) => [m.role, m.content]);
      expect(roles?.slice(1)).toEqual([
        ["user", "2+2?"],
        ["assistant", "Four."],
        ["user", "double it"],
      ]);
    });

    it("is refused while the last one is still being worked on", async () => {
      f = await startAgentFixture({ dialect, script: [{ text: "slow", hang: true }] });
      const session = await f.newSession();
      await f.agent.prompt({ sessionId: session.id, text: "one" });
      const error = await failure(f.agent.prompt({ sessionId: session.id, text: "two" }));
      expect(error.kind).toBe("busy");
      await f.agent.abort(session.id);
    });

    it("is refused, with how to fix it, when no model is configured", async () => {
      f = await startAgentFixture({ dialect, config: { providers: {}, models: [] } });
      const session = await f.newSession();
      const error = await failure(f.agent.prompt({ sessionId: session.id, text: "hi" }));
      expect(error.kind).toBe("precondition");
      expect(error.message).toMatch(/CODER_OPENAI_COMPATIBLE_BASE_URL/);
      expect((await f.agent.get(session.id)).messages).toEqual([]);
    });

    it("can switch the session's agent and model", async () => {
      f = await startAgentFixture({ dialect, script: [{ text: "planning" }] });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({
        sessionId: session.id,
        text: "plan",
        agent: "plan",
        model: MODEL,
      });
      await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      const detail = await f.agent.get(session.id);
      expect(detail.session).toMatchObject({ agent: "plan", model: MODEL });
      expect(detail.messages[1]?.agent).toBe("plan");
    });
  });

  describe("abort", () => {
    it("stops a model that is still streaming", async () => {
      f = await startAgentFixture({ dialect, script: [{ text: ["partial "], hang: true }] });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "go" });
      await view.waitFor((e) => e.type === "part.delta");
      expect(await f.agent.abort(session.id)).toEqual({ aborted: true });
      const end = await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(end.type === "turn.finished" && end.turn.status).toBe("aborted");
      const assistant = (await f.agent.get(session.id)).messages[1]?.parts ?? [];
      expect(assistant.find((p) => p.type === "text")).toMatchObject({ text: "partial " });
      expect(await f.agent.abort(session.id)).toEqual({ aborted: false });
    });

    it.runIf(dialect === "postgres")("stops a turn that another instance runs", async () => {
      f = await startAgentFixture({ dialect, script: [{ text: ["partial "], hang: true }] });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "go" });
      await view.waitFor((e) => e.type === "part.delta");
      const other = await f.startAnother();
      await expect(other.prompt({ sessionId: session.id, text: "me too" })).rejects.toThrow(/still working/);
      expect(await other.abort(session.id)).toEqual({ aborted: true });
      const detail = await other.get(session.id);
      expect(detail.turn).toBeNull();
      expect(detail.turns.map((t) => [t.id, t.status])).toEqual([[turnId, "aborted"]]);
    });

    it("stops the running tool", async () => {
      f = await startAgentFixture({
        dialect,
        script: [{ toolCalls: [{ name: "bash", args: { command: "sleep 30" } }] }],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "wait" });
      await view.waitFor(
        (e) => e.type === "part.updated" && e.part.type === "tool" && e.part.state === "running",
      );
      await f.agent.abort(session.id);
      const end = await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(end.type === "turn.finished" && end.turn.status).toBe("aborted");
      const tool = (await parts(session.id)).find((p): p is ToolPart => p.type === "tool");
      expect(tool?.state).toBe("error");
      expect(f.model.requests).toHaveLength(1);
    });

    it("withdraws a waiting approval", async () => {
      f = await startAgentFixture({
        dialect,
        config: { permissions: { "*": { bash: "ask" } } },
        script: [{ toolCalls: [{ name: "bash", args: { command: "ls" } }] }],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      await f.agent.prompt({ sessionId: session.id, text: "list" });
      const asked = await view.waitFor(isType("approval.asked"));
      expect((await f.agent.get(session.id)).pending.approvals).toHaveLength(1);
      await f.agent.abort(session.id);
      expect((await f.agent.get(session.id)).pending.approvals).toEqual([]);
      await expect(
        f.agent.respond({ sessionId: session.id, requestId: asked.request.id, reply: "once" }),
      ).rejects.toThrow(/no longer waiting/);
    });
  });

  describe("provider failures", () => {
    it("are retried when transient, and the retry is shown", async () => {
      f = await startAgentFixture({
        dialect,
        script: [
          { error: { status: 429, message: "slow down" } },
          { error: { status: 503 } },
          { text: "finally" },
        ],
      });
      const session = await f.newSession();
      expect((await f.run(session.id, "hi")).status).toBe("done");
      const retries = (await parts(session.id)).filter((p) => p.type === "retry");
      expect(retries.map((p) => (p.type === "retry" ? p.message : ""))).toEqual([
        "the model provider is rate limiting requests (HTTP 429): slow down",
        "the model provider failed (HTTP 503): scripted error 503",
      ]);
      expect(f.model.requests).toHaveLength(3);
    });

    it("end the turn with a plain message when they are not", async () => {
      f = await startAgentFixture({ dialect, script: [{ error: { status: 401, message: "bad key" } }] });
      const session = await f.newSession();
      const turn = await f.run(session.id, "hi");
      expect(turn.status).toBe("error");
      expect(turn.error).toMatch(/refused the credentials \(HTTP 401\); check the API key: bad key/);
      expect((await parts(session.id)).find((p) => p.type === "error")).toMatchObject({ kind: "auth" });
      expect(f.model.requests).toHaveLength(1);
    });

    it("say when the conversation no longer fits the model", async () => {
      f = await startAgentFixture({
        dialect,
        script: [{ error: { status: 400, message: "This model's maximum context length is 8192 tokens" } }],
      });
      const session = await f.newSession();
      const turn = await f.run(session.id, "hi");
      expect((await parts(session.id)).find((p) => p.type === "error")).toMatchObject({
        kind: "context_length",
      });
      expect(turn.error).toMatch(/too long for this model/);
    });
  });

  describe("sessions", () => {
    it("are listed per workspace, renamed and deleted", async () => {
      f = await startAgentFixture({ dialect });
      const a = await f.newSession();
      const b = await f.agent.create({ workspaceId: f.workspaceId, title: "Refactor", agent: "plan" });
      expect(b).toMatchObject({ title: "Refactor", agent: "plan", model: null, parentId: null });
      const renamed = await f.agent.update({ sessionId: a.id, title: "Renamed" });
      expect(renamed.title).toBe("Renamed");
      expect((await f.agent.list(f.workspaceId)).map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
      await f.agent.delete(a.id);
      expect((await f.agent.list(f.workspaceId)).map((s) => s.id)).toEqual([b.id]);
      expect((await failure(f.agent.get(a.id))).kind).toBe("not_found");
    });

    it("list the configured models", async () => {
      f = await startAgentFixture({ dialect });
      expect(await f.agent.listModels()).toEqual({
        models: [
          {
            id: MODEL,
            provider: "openai-compatible",
            name: "scripted",
            label: "scripted · OpenAI-compatible",
          },
        ],
        defaultModel: MODEL,
      });
    });
  });

  describe("session events", () => {
    it("resume after the last id a client saw, without gaps or repeats", async () => {
      f = await startAgentFixture({
        dialect,
        script: [{ text: ["a", "b", "c"], delayMs: 20 }, { text: "second" }],
      });
      const session = await f.newSession();
      await f.run(session.id, "first");
      const detail = await f.agent.get(session.id);
      const all = [];
      const controller = new AbortController();
      for await (const e of f.agent.follow(session.id, null, controller.signal)) {
        all.push(e);
        if (String(e.id) === detail.lastEventId) break;
      }
      const middle = all[Math.floor(all.length / 2)];
      const resumed: number[] = [];
      const view = f.watch(session.id);
      const tail = (async () => {
        for await (const e of f.agent.follow(session.id, String(middle?.id), controller.signal)) {
          resumed.push(e.id);
          if (e.type === "turn.finished" && resumed.length > all.length / 2) break;
        }
      })();
      await f.agent.prompt({ sessionId: session.id, text: "again" });
      await tail;
      await view.waitFor(
        (e) => e.type === "turn.finished" && view.all.filter(isType("turn.finished")).length === 2,
      );
      controller.abort();
      const expected = view.all.map((e) => e.id).filter((id) => id > (middle?.id ?? 0));
      expect(resumed).toEqual(expected);
      expect(new Set(resumed).size).toBe(resumed.length);
    });
  });

  describe("a service that stopped mid-turn", () => {
    it("marks the turn interrupted when it shuts down cleanly", async () => {
      f = await startAgentFixture({ dialect, script: [{ text: ["thinking "], hang: true }] });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "go" });
      await view.waitFor((e) => e.type === "part.delta");
      await f.agent.close();
      const end = await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(end.type === "turn.finished" && end.turn.status).toBe("interrupted");
    });

    it("marks the turn and its unfinished calls interrupted when it starts again", async () => {
      f = await startAgentFixture({
        dialect,
        config: { permissions: { "*": { bash: "ask" } } },
        script: [{ text: "checking", toolCalls: [{ name: "bash", args: { command: "ls" } }] }],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      await f.agent.prompt({ sessionId: session.id, text: "go" });
      await view.waitFor(isType("approval.asked"));
      expect((await f.agent.get(session.id)).pending.approvals).toHaveLength(1);
      // The first service dies (its heartbeat stops); a second one on the same database, as after
      // a restart, or another instance beside it, ends the turn it left running.
      f.cluster.instance.abandon();
      const restarted = await f.startAnother();
      await expect.poll(async () => (await restarted.get(session.id)).turn, { timeout: 5000 }).toBeNull();
      const detail = await restarted.get(session.id);
      expect(detail.pending.approvals).toEqual([]);
      const tool = detail.messages.flatMap((m) => m.parts).find((p): p is ToolPart => p.type === "tool");
      expect(tool).toMatchObject({ state: "error", result: { error: { code: "aborted" } } });
      expect(detail.messages[1]?.parts.find((p) => p.type === "text")).toMatchObject({ text: "checking" });
      const controller = new AbortController();
      let finished: unknown;
      for await (const e of restarted.follow(session.id, null, controller.signal)) {
        if (e.type === "turn.finished") {
          finished = e.turn;
          break;
        }
      }
      expect(finished).toMatchObject({
        status: "interrupted",
        error: "the service stopped while the agent was working",
      });
      await f.agent.abort(session.id);
    });
  });
});
