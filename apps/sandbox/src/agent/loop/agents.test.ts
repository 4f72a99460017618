import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentFixture, isType, startAgentFixture } from "../testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

const offered = (n: number) => f.model.requests[n]?.body.tools?.map((t) => t.function.name) ?? [];

describe("a question", () => {
  it("waits for the person's answer and hands it to the model", async () => {
    const questions = [{ question: "Which database?", options: ["SQLite", "Postgres"] }];
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "question", args: { questions } }] }, { text: "ok" }],
    });
    const session = await f.newSession();
    const view = f.watch(session.id);
    const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "set up storage" });
    const asked = await view.waitFor(isType("question.asked"));
    expect(asked.request.questions).toEqual(questions);
    expect((await f.agent.get(session.id)).pending.questions.map((q) => q.id)).toEqual([asked.request.id]);
    await f.agent.answer({ sessionId: session.id, requestId: asked.request.id, answers: [["Postgres"]] });
    await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
    expect(f.model.toolResults(1).join("")).toContain("-> Postgres");
    expect((await f.agent.get(session.id)).pending.questions).toEqual([]);
  });

  it("tells the model when the person declines to answer", async () => {
    const questions = [{ question: "Name?", options: [] }];
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "question", args: { questions } }] }, { text: "ok" }],
    });
    const session = await f.newSession();
    const view = f.watch(session.id);
    await f.agent.prompt({ sessionId: session.id, text: "go" });
    const asked = await view.waitFor(isType("question.asked"));
    await f.agent.answer({ sessionId: session.id, requestId: asked.request.id, answers: null });
    await view.waitFor(isType("turn.finished"));
    const [part] = await f.toolParts(session.id);
    expect(part?.result?.error?.code).toBe("rejected");
  });

  it("cannot be answered twice or from another session", async () => {
    const questions = [{ question: "Q?", options: ["a"] }];
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "question", args: { questions } }] }, { text: "ok" }],
    });
    const session = await f.newSession();
    const other = await f.newSession();
    const view = f.watch(session.id);
    await f.agent.prompt({ sessionId: session.id, text: "go" });
    const asked = await view.waitFor(isType("question.asked"));
    await expect(
      f.agent.answer({ sessionId: other.id, requestId: asked.request.id, answers: [["a"]] }),
    ).rejects.toThrow(/no longer waiting/);
    await f.agent.answer({ sessionId: session.id, requestId: asked.request.id, answers: [["a"]] });
    await expect(
      f.agent.answer({ sessionId: session.id, requestId: asked.request.id, answers: [["a"]] }),
    ).rejects.toThrow(/already answered/);
    await view.waitFor(isType("turn.finished"));
  });
});

describe("task", () => {
  it("runs a sub-agent in a child session and returns its summary", async () => {
    f = await startAgentFixture({
      script: [
        {
          toolCalls: [{ name: "task", args: { agent: "explore", objective: "Find where main is defined" } }],
        },
        { toolCalls: [{ name: "grep", args: { pattern: "main" } }] },
        { text: "main is in src/app.ts:3" },
        { text: "Found it." },
      ],
    });
    const session = await f.newSession();
    expect((await f.run(session.id, "where is main?")).status).toBe("done");
    // The sub-agent got the read-only tools, and no task/question/todo tools.
    expect(offered(1)).toContain("grep");
    for (const tool of ["task", "question", "todowrite", "bash", "write", "edit"])
      expect(offered(1)).not.toContain(tool);
    expect(f.model.requests[1]?.body.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Find where main is defined",
    });
    const [task] = await f.toolParts(session.id);
    expect(task).toMatchObject({
      state: "completed",
      result: { ok: true, summary: "main is in src/app.ts:3" },
    });
    const childId = task?.progress?.sessionId as string;
    const child = await f.agent.get(childId);
    expect(child.session).toMatchObject({ parentId: session.id, agent: "explore" });
    expect(child.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(await f.agent.list(f.workspaceId)).toHaveLength(1);
    await expect(f.agent.prompt({ sessionId: childId, text: "hi" })).rejects.toThrow(/sub-agent/);
  });

  it("refuses an unknown sub-agent", async () => {
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "task", args: { agent: "wizard", objective: "x" } }] }, { text: "ok" }],
    });
    const session = await f.newSession();
    await f.run(session.id, "go");
    const [task] = await f.toolParts(session.id);
    expect(task?.result?.error?.message).toMatch(/no sub-agent named "wizard"/);
  });
});

describe("the plan agent", () => {
  it("may write only its plan, and becomes the build agent once the person approves plan_exit", async () => {
    f = await startAgentFixture({
      script: [
        { toolCalls: [{ name: "write", args: { path: "src/app.ts", content: "x" } }] },
        { toolCalls: [{ name: "write", args: { path: ".coder/plans/plan.md", content: "# Plan\n" } }] },
        { toolCalls: [{ name: "plan_exit", args: {} }] },
        { text: "Building now." },
      ],
    });
    const session = await f.newSession("plan");
    const view = f.watch(session.id);
    const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "plan a change" });
    const asked = await view.waitFor(isType("approval.asked"));
    expect(asked.request.permission).toBe("plan_exit");
    await f.agent.respond({ sessionId: session.id, requestId: asked.request.id, reply: "once" });
    await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);

    expect(offered(0)).not.toContain("bash");
    expect(offered(0)).toContain("write");
    const [denied, planned, exit] = await f.toolParts(session.id);
    expect(denied?.result?.error?.code).toBe("permission_denied");
    expect(existsSync(path.join(f.workspace.root, "src/app.ts"))).toBe(false);
    expect(planned?.state).toBe("completed");
    expect(readFileSync(path.join(f.workspace.root, ".coder/plans/plan.md"), "utf8")).toBe("# Plan\n");
    expect(exit?.result).toMatchObject({ ok: true, approved: true });
    expect(offered(3)).toContain("bash");
    expect((await f.agent.get(session.id)).session.agent).toBe("build");
  });
});
