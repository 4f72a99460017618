import type { Author } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { AgentError } from "./errors";
import { type AgentFixture, isType, startAgentFixture } from "./testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

const ada: Author = { kind: "guest", name: "Ada" };
const owner: Author = { kind: "owner", name: "Owner" };

async function rejected(call: Promise<unknown>): Promise<AgentError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error("expected an AgentError");
}

describe("a session several people share", () => {
  it("keeps who wrote each prompt, in its events and in the stored session", async () => {
    f = await startAgentFixture({ script: [{ text: "Hi Ada." }, { text: "Hi." }] });
    const session = await f.newSession();
    const view = f.watch(session.id);
    const first = await f.agent.prompt({ sessionId: session.id, text: "hello" }, ada);
    await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === first.turnId);
    const created = await view.waitFor(
      (e) => e.type === "message.created" && e.message.id === first.messageId,
    );
    expect(created.type === "message.created" && created.message.author).toEqual(ada);
    await f.run(session.id, "and me"); // the fixture prompts unattributed, as the service never does
    const messages = (await f.agent.get(session.id)).messages;
    expect(messages.map((m) => [m.role, m.author])).toEqual([
      ["user", ada],
      ["assistant", undefined],
      ["user", undefined],
      ["assistant", undefined],
    ]);
  });

  it("takes the first answer to an approval and tells a second one who answered", async () => {
    f = await startAgentFixture({
      config: { permissions: { "*": { bash: "ask" } } },
      script: [{ toolCalls: [{ name: "bash", args: { command: "ls" } }] }, { text: "done" }],
    });
    const session = await f.newSession();
    const view = f.watch(session.id);
    await f.agent.prompt({ sessionId: session.id, text: "list" }, owner);
    const asked = await view.waitFor(isType("approval.asked"));
    const ref = { sessionId: session.id, requestId: asked.request.id };
    await f.agent.respond({ ...ref, reply: "once" }, ada);
    const late = await rejected(f.agent.respond({ ...ref, reply: "reject" }, owner));
    expect(late.kind).toBe("conflict");
    expect(late.message).toBe("that approval was already answered by Ada");
    const replied = await view.waitFor(isType("approval.replied"));
    expect(replied).toMatchObject({ reply: "once", by: ada });
    await view.waitFor(isType("turn.finished"));
    const [call] = await f.toolParts(session.id);
    expect(call).toMatchObject({ state: "completed", approval: { reply: "once", by: ada } });
    expect(view.all.filter((e) => e.type === "approval.replied")).toHaveLength(1);
    // The answered request stays on record: even after the turn, a late answer learns whose came first.
    const later = await rejected(f.agent.respond({ ...ref, reply: "always" }, owner));
    expect([later.kind, later.message]).toEqual(["conflict", "that approval was already answered by Ada"]);
  });

  it("takes the first answer to a question and names who gave it", async () => {
    const questions = [{ question: "Which database?", options: ["SQLite", "Postgres"] }];
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "question", args: { questions } }] }, { text: "ok" }],
    });
    const session = await f.newSession();
    const view = f.watch(session.id);
    await f.agent.prompt({ sessionId: session.id, text: "set up storage" }, owner);
    const asked = await view.waitFor(isType("question.asked"));
    const ref = { sessionId: session.id, requestId: asked.request.id };
    await f.agent.answer({ ...ref, answers: [["Postgres"]] }, ada);
    await expect(f.agent.answer({ ...ref, answers: [["SQLite"]] }, owner)).rejects.toThrow(
      "that question was already answered by Ada",
    );
    expect(await view.waitFor(isType("question.replied"))).toMatchObject({
      answers: [["Postgres"]],
      by: ada,
    });
    await view.waitFor(isType("turn.finished"));
    const [call] = await f.toolParts(session.id);
    expect(call?.answeredBy).toEqual(ada);
    expect(f.model.toolResults(1).join("")).toContain("-> Postgres");
  });
});
