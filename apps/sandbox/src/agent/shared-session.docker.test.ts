import type { StoredSessionEvent, ToolPart } from "@coder/protocol";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinShare, trpcClient } from "../testing/harness";
import { collectEvents, type EventLogView, isType } from "./testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "./testing/scripted-agent";
import { sessionEventStream } from "./testing/sse-events";

/** The tRPC error of a call that must fail: its code and message. */
async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) return { code: String(error.data?.code), message: error.message };
    throw error;
  }
  throw new Error("the call succeeded");
}

describe("the agent in company: the owner and guests watch one session", () => {
  let agent: ScriptedAgent;
  const streams = new AbortController();

  beforeAll(async () => {
    agent = await startScriptedAgent({ workspaceName: "company", permissions: { "*": { bash: "ask" } } });
  });

  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  /** A guest who joined through a real share link of the workspace. */
  async function guest(role: "viewer" | "editor", name: string) {
    const { t, workspaceId } = agent;
    const link = await t.api.share.create.mutate({ workspaceId, role });
    const cookie = await joinShare(t.url, link.url, name);
    return { cookie, api: trpcClient(t.url, cookie) };
  }

  const watch = (cookie: string, sessionId: string): EventLogView =>
    collectEvents(sessionEventStream(agent.t.url, cookie, sessionId, streams.signal));

  it("shows everyone who prompted and who approved; the first answer wins and a later one is told whose it was", async () => {
    const { t, model } = agent;
    const ada = await guest("editor", "Ada");
    const vic = await guest("viewer", "Vic");
    const owner = await agent.session(streams.signal);
    const views = { owner: owner.events, ada: watch(ada.cookie, owner.id), vic: watch(vic.cookie, owner.id) };

    model.push({ toolCalls: [{ name: "bash", args: { command: "echo shared" } }] }, { text: "Done." });
    const { turnId, messageId } = await ada.api.session.prompt.mutate({
      sessionId: owner.id,
      text: "run it",
    });

    // Everyone watching sees who prompted, live…
    for (const view of Object.values(views)) {
      const created = await view.waitFor(
        (e): e is Extract<StoredSessionEvent, { type: "message.created" }> =>
          e.type === "message.created" && e.message.id === messageId,
        30_000,
      );
      expect(created.message.author).toEqual({ kind: "guest", name: "Ada" });
    }
    // …and the approval request, live.
    const asked = await Promise.all(
      Object.values(views).map((v) => v.waitFor(isType("approval.asked"), 30_000)),
    );
    const requestId = asked[0]?.request.id ?? "";
    expect(asked.map((a) => a.request.id)).toEqual([requestId, requestId, requestId]);

    // A viewer sees it but may not answer.
    const fromViewer = await refusal(
      vic.api.session.respond.mutate({ sessionId: owner.id, requestId, reply: "reject" }),
    );
    expect(fromViewer.code).toBe("FORBIDDEN");

    await ada.api.session.respond.mutate({ sessionId: owner.id, requestId, reply: "once" });
    const late = await refusal(
      t.api.session.respond.mutate({ sessionId: owner.id, requestId, reply: "reject" }),
    );
    expect(late).toEqual({ code: "CONFLICT", message: "that approval was already answered by Ada" });

    for (const view of Object.values(views)) {
      const replied = await view.waitFor(isType("approval.replied"), 30_000);
      expect(replied).toMatchObject({ requestId, reply: "once", by: { kind: "guest", name: "Ada" } });
      await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);
      // One answer only: the owner's late reject changed nothing.
      expect(view.all.filter((e) => e.type === "approval.replied")).toHaveLength(1);
    }

    // A page loaded now shows the same: the prompt's author and who approved the call.
    for (const api of [t.api, ada.api, vic.api]) {
      const detail = await api.session.get.query({ sessionId: owner.id });
      expect(detail.messages.find((m) => m.id === messageId)?.author).toEqual({ kind: "guest", name: "Ada" });
      const call = detail.messages.flatMap((m) => m.parts).find((p) => p.type === "tool") as ToolPart;
      expect(call).toMatchObject({
        state: "completed",
        approval: { reply: "once", by: { kind: "guest", name: "Ada" } },
      });
    }
    expect(model.toolResults(model.requests.length - 1).join("")).toContain("shared");
  });

  it("names the owner on the owner's prompts and answers", async () => {
    const { t, model } = agent;
    const bea = await guest("editor", "Bea");
    const owner = await agent.session(streams.signal);
    const beaView = watch(bea.cookie, owner.id);
    model.push({ toolCalls: [{ name: "bash", args: { command: "rm -rf build" } }] }, { text: "Kept it." });
    const { turnId, messageId } = await t.api.session.prompt.mutate({ sessionId: owner.id, text: "clean" });
    const asked = await beaView.waitFor(isType("approval.asked"), 30_000);
    await t.api.session.respond.mutate({
      sessionId: owner.id,
      requestId: asked.request.id,
      reply: "reject",
      message: "keep build",
    });
    const late = await refusal(
      bea.api.session.respond.mutate({ sessionId: owner.id, requestId: asked.request.id, reply: "once" }),
    );
    expect(late).toEqual({ code: "CONFLICT", message: "that approval was already answered by Owner" });
    await beaView.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);
    const owned = { kind: "user", name: "Owner" };
    expect(beaView.all.find((e) => e.type === "approval.replied")).toMatchObject({
      reply: "reject",
      by: owned,
    });
    const detail = await bea.api.session.get.query({ sessionId: owner.id });
    expect(detail.messages.find((m) => m.id === messageId)?.author).toEqual(owned);
    const call = detail.messages.flatMap((m) => m.parts).find((p) => p.type === "tool");
    expect(call).toMatchObject({ state: "error", approval: { reply: "reject", by: owned } });
  });
});
