import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentFixture, isType, startAgentFixture } from "../testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

describe("tool calls", () => {
  it("read a file, then edit it, and the file changes", async () => {
    f = await startAgentFixture({
      script: [
        { toolCalls: [{ name: "read", args: { path: "greet.txt" } }] },
        {
          toolCalls: [
            { name: "edit", args: { path: "greet.txt", old_string: "hello", new_string: "goodbye" } },
          ],
        },
        { text: "Done." },
      ],
    });
    writeFileSync(path.join(f.workspace.root, "greet.txt"), "hello world\n");
    const session = await f.newSession();
    const turn = await f.run(session.id, "Change hello to goodbye in greet.txt");
    expect(turn.status).toBe("done");
    expect(readFileSync(path.join(f.workspace.root, "greet.txt"), "utf8")).toBe("goodbye world\n");
    const parts = await f.toolParts(session.id);
    expect(parts.map((p) => [p.tool, p.state])).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
    ]);
    expect(parts[0]?.output).toContain("hello world");
    expect(f.model.toolResults(1).join("")).toContain("hello world");
    expect(f.model.requests).toHaveLength(3);
  });

  it("send a call with unusable arguments back to the model to fix", async () => {
    f = await startAgentFixture({
      script: [
        { toolCalls: [{ name: "read", args: "{not json" }] },
        { toolCalls: [{ name: "nosuch", args: {} }] },
        { text: "ok" },
      ],
    });
    const session = await f.newSession();
    expect((await f.run(session.id, "go")).status).toBe("done");
    const parts = await f.toolParts(session.id);
    expect(parts.map((p) => [p.tool, p.state, p.result?.error?.code])).toEqual([
      ["read", "error", "invalid_args"],
      ["nosuch", "error", "unknown_tool"],
    ]);
    expect(f.model.toolResults(1).join("")).toMatch(/Invalid input for tool read/);
    expect(f.model.toolResults(2).join("")).toMatch(/nosuch/);
  });

  it("refuse a tool the agent is not offered", async () => {
    f = await startAgentFixture({
      script: [{ toolCalls: [{ name: "bash", args: { command: "ls" } }] }, { text: "ok" }],
    });
    const session = await f.newSession("plan");
    expect((await f.run(session.id, "look around")).status).toBe("done");
    const [part] = await f.toolParts(session.id);
    expect(part?.result?.error?.code).toBe("unknown_tool");
    expect(part?.output).toMatch(/unavailable tool 'bash'/);
  });

  it("keep the todo list in the session and publish its changes", async () => {
    const todos = [
      { id: "1", content: "write tests", status: "in_progress", priority: "high" },
      { id: "2", content: "ship", status: "pending", priority: "low" },
    ];
    f = await startAgentFixture({
      script: [
        { toolCalls: [{ name: "todowrite", args: { todos } }] },
        { toolCalls: [{ name: "todoread", args: {} }] },
        { text: "ok" },
      ],
    });
    const session = await f.newSession();
    const view = f.watch(session.id);
    expect((await f.run(session.id, "plan it")).status).toBe("done");
    const updated = await view.waitFor(isType("todos.updated"));
    expect(updated.todos.map((t) => t.content)).toEqual(["write tests", "ship"]);
    expect((await f.agent.get(session.id)).todos).toEqual(todos);
    expect(f.model.toolResults(2).join("")).toContain("[~] write tests");
  });
});
