import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isType } from "../testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "../testing/scripted-agent";

describe("the agent's git push in a real workspace", () => {
  let agent: ScriptedAgent;
  const streams = new AbortController();

  beforeAll(async () => {
    // Every shell command allowed without asking.
    agent = await startScriptedAgent({
      workspaceName: "pushing-agent",
      permissions: { "*": { bash: "allow" } },
    });
  });
  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  it("asks before every push even when bash is allowed, and an always reply does not stop it asking", async () => {
    const { model, t } = agent;
    const s = await agent.session(streams.signal);
    const turn = async (command: string) => {
      model.push({ toolCalls: [{ name: "bash", args: { command } }] }, { text: "Done." });
      return (await t.api.session.prompt.mutate({ sessionId: s.id, text: command })).turnId;
    };
    const finished = (turnId: string) =>
      s.events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);

    await finished(await turn("git status"));
    expect(s.events.all.filter(isType("approval.asked"))).toEqual([]);

    const first = await turn("git push origin main");
    const asked = await s.events.waitFor(isType("approval.asked"), 30_000);
    expect(asked.request).toMatchObject({
      permission: "bash",
      patterns: ["git push origin main"],
      always: [],
    });
    await t.api.session.respond.mutate({ sessionId: s.id, requestId: asked.request.id, reply: "always" });
    await finished(first);

    const second = await turn("git push origin main");
    const again = await s.events.waitFor(
      (e) => e.type === "approval.asked" && e.request.id !== asked.request.id,
      30_000,
    );
    expect(again.type === "approval.asked" && again.request.patterns).toEqual(["git push origin main"]);
    if (again.type === "approval.asked") {
      await t.api.session.respond.mutate({ sessionId: s.id, requestId: again.request.id, reply: "reject" });
    }
    await finished(second);
  });
});
