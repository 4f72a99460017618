import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentFixture, isType, startAgentFixture } from "../testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

function configure(verify: Record<string, unknown>): void {
  mkdirSync(path.join(f.workspace.root, ".coder"), { recursive: true });
  writeFileSync(path.join(f.workspace.root, ".coder/config.json"), JSON.stringify({ verify }));
}

const write = (file: string, content = "x\n") => ({ name: "write", args: { path: file, content } });

/** The text of the user messages the model was sent in its last request. */
const lastPrompt = () =>
  String(
    f.model.requests
      .at(-1)
      ?.body.messages.filter((m) => m.role === "user")
      .at(-1)?.content ?? "",
  );

describe("auto-verify", () => {
  it("hand a failing check's output to the agent, which fixes it, and the check passes", async () => {
    f = await startAgentFixture({
      script: [
        { toolCalls: [write("app.js")] },
        { text: "Wrote app.js." },
        { toolCalls: [write("fixed.js")] },
        { text: "Fixed." },
      ],
    });
    configure({ command: "test -f fixed.js || { echo 'fixed.js is missing'; exit 1; }", max_attempts: 2 });
    const session = await f.newSession();
    const view = f.watch(session.id);
    const first = await f.run(session.id, "write app.js");
    expect(first.status).toBe("done");

    expect(lastPrompt()).toContain("fixed.js is missing");
    expect(lastPrompt()).toContain("attempt 1 of 2");
    const checks = view.all.filter(isType("verify.finished"));
    expect(checks.map((c) => [c.attempt, c.passed])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(checks[0]?.turnId).toBe(first.id);
    expect(checks[0]?.output).toContain("fixed.js is missing");
    const turns = (await f.agent.get(session.id)).turns;
    expect(turns.map((t) => [t.status, t.changedFiles])).toEqual([
      ["done", true],
      ["done", true],
    ]);
    expect(checks[1]?.turnId).toBe(turns[1]?.id);
  });

  it("stop after the configured number of attempts", async () => {
    f = await startAgentFixture({
      script: [
        { toolCalls: [write("a.js")] },
        { text: "one" },
        { toolCalls: [write("b.js")] },
        { text: "two" },
      ],
    });
    configure({ command: "echo still broken; exit 3", max_attempts: 2 });
    const session = await f.newSession();
    const view = f.watch(session.id);
    await f.run(session.id, "go");
    expect(view.all.filter(isType("verify.finished")).map((c) => c.passed)).toEqual([false, false]);
    expect((await f.agent.get(session.id)).turns).toHaveLength(2);
    expect(f.model.requests).toHaveLength(4);
  });

  it("skip the check after a turn that changed only documentation", async () => {
    f = await startAgentFixture({
      script: [{ toolCalls: [write("docs/guide.rst"), write("README.md")] }, { text: "Documented." }],
    });
    configure({ command: "touch checked.txt" });
    const session = await f.newSession();
    const view = f.watch(session.id);
    await f.run(session.id, "document it");
    expect(view.all.filter(isType("verify.finished"))).toEqual([]);
    expect(existsSync(path.join(f.workspace.root, "checked.txt"))).toBe(false);
  });

  it("skip the check after a turn that changed no file, and when the config does not parse", async () => {
    f = await startAgentFixture({
      script: [{ text: "Nothing to do." }, { toolCalls: [write("a.js")] }, { text: "ok" }],
    });
    configure({ command: "touch checked.txt" });
    const session = await f.newSession();
    await f.run(session.id, "hello");
    writeFileSync(path.join(f.workspace.root, ".coder/config.json"), "{ not json");
    await f.run(session.id, "write a.js");
    expect(existsSync(path.join(f.workspace.root, "checked.txt"))).toBe(false);
  });

  it("do not run a check the agent's bash rules refuse, and say why it was skipped", async () => {
    f = await startAgentFixture({
      config: { permissions: { "*": { bash: { "*": "allow", "touch *": "deny" } } } },
      script: [{ toolCalls: [write("a.js")] }, { text: "ok" }],
    });
    configure({ command: "touch checked.txt" });
    const session = await f.newSession();
    const view = f.watch(session.id);
    await f.run(session.id, "write a.js");
    expect(existsSync(path.join(f.workspace.root, "checked.txt"))).toBe(false);
    expect(view.all.filter(isType("verify.finished"))).toEqual([]);
    const [skipped] = view.all.filter(isType("verify.skipped"));
    expect(skipped?.reason).toMatch(/touch checked.txt is not permitted/);
  });

  it("run a check the rules ask about only once the person allows it", async () => {
    f = await startAgentFixture({
      config: { permissions: { "*": { bash: "ask" } } },
      script: [
        { toolCalls: [write("a.js")] },
        { text: "ok" },
        { toolCalls: [write("b.js")] },
        { text: "ok" },
      ],
    });
    configure({ command: "touch checked.txt; exit 1" });
    const session = await f.newSession();
    const view = f.watch(session.id);
    const checked = path.join(f.workspace.root, "checked.txt");

    await f.agent.prompt({ sessionId: session.id, text: "write a.js" });
    const first = await view.waitFor((e) => e.type === "approval.asked");
    if (first.type !== "approval.asked") throw new Error("no approval");
    expect(first.request).toMatchObject({ tool: "bash", patterns: ["touch checked.txt; exit 1"] });
    expect(existsSync(checked)).toBe(false);
    await f.agent.respond({ sessionId: session.id, requestId: first.request.id, reply: "once" });
    await view.waitFor((e) => e.type === "verify.finished");
    expect(existsSync(checked)).toBe(true);

    // The failed check went back to the agent; after its next turn the check asks again.
    rmSync(checked);
    const second = await view.waitFor(
      (e) => e.type === "approval.asked" && e.request.id !== first.request.id,
    );
    if (second.type !== "approval.asked") throw new Error("no second approval");
    await f.agent.respond({ sessionId: session.id, requestId: second.request.id, reply: "reject" });
    await f.agent.idle(session.id);
    await view.waitFor(isType("verify.skipped"));
    expect(existsSync(checked)).toBe(false);
    expect(view.all.filter(isType("verify.skipped")).map((e) => e.reason)).toEqual([
      "the person did not allow it",
    ]);
  });
});
