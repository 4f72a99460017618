import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../db/testing/test-database";
import { AgentError } from "../errors";
import { type AgentFixture, isType, startAgentFixture } from "../testing/agent-fixture";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

const file = (name: string) => path.join(f.workspace.root, name);
const read = (name: string) => readFileSync(file(name), "utf8");

/** A turn that edits one file, creates one and deletes one (with bash). */
const CHANGING_TURN = [
  { toolCalls: [{ name: "read", args: { path: "greet.txt" } }] },
  {
    toolCalls: [
      { name: "edit", args: { path: "greet.txt", old_string: "hello", new_string: "goodbye" } },
      { name: "write", args: { path: "src/new.txt", content: "new\n" } },
      { name: "bash", args: { command: "rm gone.txt", description: "remove gone.txt" } },
    ],
  },
  { text: "Done." },
];

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

describe.each(DIALECTS)("on %s", (dialect) => {
  describe("turn snapshots", () => {
    it("show what a turn changed, revert it without touching the person's edits, and undo the revert", async () => {
      f = await startAgentFixture({ dialect, script: CHANGING_TURN });
      writeFileSync(file("greet.txt"), "hello world\n");
      writeFileSync(file("gone.txt"), "old\n");
      writeFileSync(file("mine.txt"), "mine\n");
      const session = await f.newSession();
      const view = f.watch(session.id);
      const turn = await f.run(session.id, "change things");
      expect(turn.status).toBe("done");
      await view.waitFor((e) => e.type === "turn.changes" && e.turnId === turn.id && e.changedFiles);
      expect((await f.agent.get(session.id)).turns).toMatchObject([
        { id: turn.id, changedFiles: true, reverted: false },
      ]);

      const ref = { sessionId: session.id, turnId: turn.id };
      const diff = await f.agent.turnDiff(ref);
      expect(diff.files.map((d) => [d.path, d.status])).toEqual([
        ["gone.txt", "deleted"],
        ["greet.txt", "modified"],
        ["src/new.txt", "added"],
      ]);
      expect(diff.patch).toContain("+goodbye world");

      writeFileSync(file("mine.txt"), "mine, edited after the turn\n");
      const reverted = await f.agent.revertTurn(ref);
      expect(reverted.removed).toEqual(["src/new.txt"]);
      expect(read("greet.txt")).toBe("hello world\n");
      expect(read("gone.txt")).toBe("old\n");
      expect(existsSync(file("src/new.txt"))).toBe(false);
      expect(read("mine.txt")).toBe("mine, edited after the turn\n");
      await view.waitFor((e) => e.type === "turn.changes" && e.turnId === turn.id && e.reverted);
      expect((await f.agent.get(session.id)).turns[0]?.reverted).toBe(true);
      expect((await failure(f.agent.revertTurn(ref))).message).toMatch(/already reverted/);

      await f.agent.undoRevert(ref);
      expect(read("greet.txt")).toBe("goodbye world\n");
      expect(read("src/new.txt")).toBe("new\n");
      expect(existsSync(file("gone.txt"))).toBe(false);
      expect(read("mine.txt")).toBe("mine, edited after the turn\n");
      expect((await f.agent.get(session.id)).turns[0]?.reverted).toBe(false);
      expect((await failure(f.agent.undoRevert(ref))).message).toMatch(/not reverted/);
    });

    it("record no changes for a turn that only read, and refuse to revert it", async () => {
      f = await startAgentFixture({
        dialect,
        script: [{ toolCalls: [{ name: "read", args: { path: "greet.txt" } }] }, { text: "It says hello." }],
      });
      writeFileSync(file("greet.txt"), "hello\n");
      const session = await f.newSession();
      const view = f.watch(session.id);
      const turn = await f.run(session.id, "what does it say?");
      const ref = { sessionId: session.id, turnId: turn.id };
      expect((await f.agent.get(session.id)).turns).toMatchObject([{ changedFiles: false, reverted: false }]);
      expect(await f.agent.turnDiff(ref)).toEqual({ files: [], patch: "", truncated: false });
      expect((await failure(f.agent.revertTurn(ref))).kind).toBe("precondition");
      expect(view.all.filter(isType("turn.changes"))).toEqual([]);
    });

    it("refuse to revert while the agent is working", async () => {
      f = await startAgentFixture({ dialect, script: [...CHANGING_TURN, { text: "thinking", hang: true }] });
      writeFileSync(file("greet.txt"), "hello world\n");
      writeFileSync(file("gone.txt"), "old\n");
      const session = await f.newSession();
      const turn = await f.run(session.id, "change things");
      const view = f.watch(session.id);
      await f.agent.prompt({ sessionId: session.id, text: "and more" });
      await view.waitFor((e) => e.type === "part.delta");
      const error = await failure(f.agent.revertTurn({ sessionId: session.id, turnId: turn.id }));
      expect(error.kind).toBe("busy");
      expect(read("greet.txt")).toBe("goodbye world\n");
    });

    it("leaves out of the turn what the person edited while the agent waited for approval", async () => {
      f = await startAgentFixture({
        dialect,
        config: { permissions: { "*": { bash: "ask" as const } } },
        script: [
          {
            toolCalls: [{ name: "bash", args: { command: "echo agent > agent.txt", description: "write" } }],
          },
          { text: "Done." },
        ],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "write a file" });
      const asked = await view.waitFor((e) => e.type === "approval.asked");
      if (asked.type !== "approval.asked") throw new Error("no approval");
      // The person keeps typing while being asked.
      writeFileSync(file("mine.txt"), "typed during the approval\n");
      await f.agent.respond({ sessionId: session.id, requestId: asked.request.id, reply: "once" });
      await view.waitFor((e) => e.type === "turn.changes" && e.turnId === turnId && e.changedFiles);
      // The changes are recorded after the tool ran, before the model's last answer: wait for the end.
      await f.agent.idle(session.id);
      const ref = { sessionId: session.id, turnId };
      expect((await f.agent.turnDiff(ref)).files.map((d) => d.path)).toEqual(["agent.txt"]);
      await f.agent.revertTurn(ref);
      expect(existsSync(file("agent.txt"))).toBe(false);
      expect(read("mine.txt")).toBe("typed during the approval\n");
    });
  });
});
