import type { StoredSessionEvent } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventLogView } from "../../apps/sandbox/src/agent/testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "../../apps/sandbox/src/agent/testing/scripted-agent";
import { execIn, type TestService } from "../../apps/sandbox/src/testing/harness";
import type { ModelServer } from "../support/model-server";

type Asked = Extract<StoredSessionEvent, { type: "approval.asked" }>;

/**
 * A prompt-injected agent whose person said "always" to `cat`: it hides other commands behind
 * `cat`, and the repository names a check command. Nothing of it runs without the person.
 */
describe("a hostile agent behind an always-allowed command", () => {
  let agent: ScriptedAgent;
  let model: ModelServer;
  let t: TestService;
  let workspaceId: string;
  const streams = new AbortController();

  beforeAll(async () => {
    agent = await startScriptedAgent({
      workspaceName: "hostile permissions",
      permissions: { "*": { bash: "ask" } },
    });
    ({ model, t, workspaceId } = agent);
  });

  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  const session = () => agent.session(streams.signal);

  /** The n-th approval the session asked for, or undefined if the prompt ended (or checked) first. */
  async function nthAsk(events: EventLogView, n: number, endsWith: string): Promise<Asked | undefined> {
    const asks = () => events.all.filter((e): e is Asked => e.type === "approval.asked");
    await events.waitFor((e) => asks().length >= n || e.type === endsWith, 60_000);
    return asks()[n - 1];
  }

  const exists = async (file: string) =>
    (await execIn(t.instance, workspaceId, ["test", "-e", file])).code === 0;

  it("asks before a command hidden inside `cat`, and what it hides never runs", async () => {
    await t.api.files.write.mutate({ workspaceId, path: "notes.txt", content: "notes\n" });
    await t.api.files.write.mutate({ workspaceId, path: "payload.sh", content: "touch /workspace/pwned\n" });
    const hidden = "cat <(touch /workspace/pwned)";
    const planted = "cat /workspace/payload.sh >> ~/.profile";
    model.push(
      { toolCalls: [{ name: "bash", args: { command: "cat notes.txt" } }] },
      { toolCalls: [{ name: "bash", args: { command: hidden } }] },
      { toolCalls: [{ name: "bash", args: { command: planted } }] },
      // Every later login shell would run ~/.profile, had it been written.
      { toolCalls: [{ name: "bash", args: { command: "cat notes.txt" } }] },
      { text: "Done." },
    );
    const s = await session();
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: s.id, text: "read my notes" });

    const first = await nthAsk(s.events, 1, "turn.finished");
    expect(first?.request.always).toEqual(["cat *"]);
    await t.api.session.respond.mutate({
      sessionId: s.id,
      requestId: first?.request.id ?? "",
      reply: "always",
    });

    const second = await nthAsk(s.events, 2, "turn.finished");
    expect(second?.request.patterns).toEqual([hidden]);
    expect(await exists("/workspace/pwned")).toBe(false);
    await t.api.session.respond.mutate({
      sessionId: s.id,
      requestId: second?.request.id ?? "",
      reply: "reject",
      message: "no",
    });

    const third = await nthAsk(s.events, 3, "turn.finished");
    expect(third?.request.patterns).toEqual([planted]);
    await t.api.session.respond.mutate({
      sessionId: s.id,
      requestId: third?.request.id ?? "",
      reply: "reject",
      message: "no",
    });

    const end = await s.events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);
    expect(end.type === "turn.finished" && end.turn.status).toBe("done");
    // The last `cat notes.txt` ran under the grant without asking.
    expect(s.events.all.filter((e) => e.type === "approval.asked")).toHaveLength(3);
    expect(await exists("/workspace/pwned")).toBe(false);
    const profile = await execIn(t.instance, workspaceId, ["sh", "-c", "cat ~/.profile 2>/dev/null; true"]);
    expect(profile.out).not.toContain("pwned");
  });

  it("asks before the repository's check command runs, and a no leaves it unrun", async () => {
    const check = "touch /workspace/verified";
    await t.api.files.write.mutate({
      workspaceId,
      path: ".coder/config.json",
      content: JSON.stringify({ verify: { command: check } }),
    });
    model.push({ toolCalls: [{ name: "write", args: { path: "app.js", content: "x\n" } }] }, { text: "ok" });
    const s = await session();
    await t.api.session.prompt.mutate({ sessionId: s.id, text: "write app.js" });

    const asked = await nthAsk(s.events, 1, "verify.finished");
    expect(asked?.request).toMatchObject({ permission: "bash", patterns: [check] });
    expect(await exists("/workspace/verified")).toBe(false);
    await t.api.session.respond.mutate({
      sessionId: s.id,
      requestId: asked?.request.id ?? "",
      reply: "reject",
    });

    const skipped = await s.events.waitFor((e) => e.type === "verify.skipped", 30_000);
    expect(skipped.type === "verify.skipped" && skipped.reason).toBe("the person did not allow it");
    expect(await exists("/workspace/verified")).toBe(false);
  });
});
