import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ApprovalReply } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../db/testing/test-database";
import { type AgentFixture, type EventLogView, isType, startAgentFixture } from "../testing/agent-fixture";
import { blockedReason } from "../web/address-policy";

let f: AgentFixture;
afterEach(async () => {
  await f?.close();
});

const askBash = { permissions: { "*": { bash: "ask" as const } } };

/** Waits for the n-th approval request (1-based) and replies to it. */
async function reply(
  view: EventLogView,
  sessionId: string,
  n: number,
  answer: ApprovalReply,
  message?: string,
) {
  const asked = await view.waitFor(
    (e) => e.type === "approval.asked" && view.all.filter(isType("approval.asked")).length >= n,
  );
  const request = view.all.filter(isType("approval.asked"))[n - 1]?.request;
  if (!request || asked.type !== "approval.asked") throw new Error("no approval");
  await f.agent.respond({ sessionId, requestId: request.id, reply: answer, ...(message ? { message } : {}) });
  return request;
}

describe.each(DIALECTS)("on %s", (dialect) => {
  describe("a call that asks", () => {
    it("waits for approval, then runs and streams its output", async () => {
      f = await startAgentFixture({
        dialect,
        config: askBash,
        script: [
          { toolCalls: [{ name: "bash", args: { command: "echo first; sleep 0.5; echo second" } }] },
          { text: "ok" },
        ],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "run it" });
      const request = await reply(view, session.id, 1, "once");
      expect(request).toMatchObject({ tool: "bash", permission: "bash", always: ["echo *", "sleep *"] });
      const waiting = view.all.find(
        (e) => e.type === "part.updated" && e.part.type === "tool" && e.part.state === "waiting",
      );
      expect(waiting).toBeDefined();
      await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      const progress = view.all.filter(
        (e) =>
          e.type === "part.updated" &&
          e.part.type === "tool" &&
          e.part.state === "running" &&
          e.part.progress?.stdout,
      );
      expect(progress.length).toBeGreaterThan(0);
      const [part] = await f.toolParts(session.id);
      expect(part).toMatchObject({ state: "completed", result: { ok: true, exit_code: 0 } });
      expect(part?.output).toContain("second");
      expect(view.all.some((e) => e.type === "approval.replied" && e.reply === "once")).toBe(true);
    });

    it("does not ask again for a command an always reply covers", async () => {
      f = await startAgentFixture({
        dialect,
        config: askBash,
        script: [
          { toolCalls: [{ name: "bash", args: { command: "echo a" } }] },
          { toolCalls: [{ name: "bash", args: { command: "echo b" } }] },
          { toolCalls: [{ name: "bash", args: { command: "pwd" } }] },
          { text: "ok" },
        ],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "go" });
      await reply(view, session.id, 1, "always");
      const second = await reply(view, session.id, 2, "once");
      expect(second.patterns).toEqual(["pwd"]);
      await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(view.all.filter(isType("approval.asked"))).toHaveLength(2);
    });

    it("tells the model the person's reason when rejected with a message, and goes on", async () => {
      f = await startAgentFixture({
        dialect,
        config: askBash,
        script: [
          { toolCalls: [{ name: "bash", args: { command: "rm -rf build" } }] },
          { text: "understood" },
        ],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "clean" });
      await reply(view, session.id, 1, "reject", "keep the build folder");
      const end = await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(end.type === "turn.finished" && end.turn.status).toBe("done");
      expect(f.model.toolResults(1).join("")).toContain("keep the build folder");
      const [part] = await f.toolParts(session.id);
      expect(part?.result?.error?.code).toBe("rejected");
    });

    it("ends the turn when rejected without a message", async () => {
      f = await startAgentFixture({
        dialect,
        config: askBash,
        script: [
          {
            toolCalls: [
              { name: "bash", args: { command: "make deploy" } },
              { name: "read", args: { path: "x" } },
            ],
          },
          { text: "never sent" },
        ],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "deploy" });
      await reply(view, session.id, 1, "reject");
      const end = await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(end.type === "turn.finished" && end.turn.status).toBe("rejected");
      expect(f.model.requests).toHaveLength(1);
      const parts = await f.toolParts(session.id);
      expect(parts.map((p) => [p.tool, p.state, p.result?.error?.code])).toEqual([
        ["bash", "error", "rejected"],
        ["read", "error", "rejected"],
      ]);
    });

    it("is refused outright where the rules deny it", async () => {
      f = await startAgentFixture({
        dialect,
        config: { permissions: { build: { bash: { "rm *": "deny" } } } },
        script: [{ toolCalls: [{ name: "bash", args: { command: "rm -rf /" } }] }, { text: "ok" }],
      });
      const session = await f.newSession();
      expect((await f.run(session.id, "wipe")).status).toBe("done");
      const [part] = await f.toolParts(session.id);
      expect(part?.result?.error?.code).toBe("permission_denied");
      expect(f.model.toolResults(1).join("")).toMatch(/not permitted/);
    });
  });

  describe("the same call three times in a row", () => {
    it("makes the agent ask before it goes on", async () => {
      const read = { name: "read", args: { path: "a.txt" } };
      f = await startAgentFixture({
        dialect,
        script: [{ toolCalls: [read] }, { toolCalls: [read] }, { toolCalls: [read] }, { text: "ok" }],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "read" });
      const request = await reply(view, session.id, 1, "once");
      expect(request).toMatchObject({ permission: "doom_loop", patterns: ["read"] });
      await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      expect(f.model.requests).toHaveLength(4);
      expect(view.all.filter(isType("approval.asked"))).toHaveLength(1);
    });
  });

  describe("webfetch", () => {
    it("asks first, then fetches the page as Markdown in the service", async () => {
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html" }).end("<h1>Docs</h1><p>Use <code>x()</code>.</p>");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`;
      try {
        f = await startAgentFixture({
          dialect,
          service: { web: { policy: (ip) => (ip === "127.0.0.1" ? undefined : blockedReason(ip)) } },
          script: [{ toolCalls: [{ name: "webfetch", args: { url, format: "markdown" } }] }, { text: "ok" }],
        });
        const session = await f.newSession();
        const view = f.watch(session.id);
        const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "read the docs" });
        const request = await reply(view, session.id, 1, "once");
        expect(request).toMatchObject({ permission: "webfetch", always: [`${new URL(url).origin}/*`] });
        await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
        expect(f.model.toolResults(1).join("")).toContain("# Docs");
      } finally {
        server.close();
      }
    });

    it("refuses private addresses even when the person approves", async () => {
      f = await startAgentFixture({
        dialect,
        script: [
          { toolCalls: [{ name: "webfetch", args: { url: "http://169.254.169.254/latest/meta-data/" } }] },
          { text: "ok" },
        ],
      });
      const session = await f.newSession();
      const view = f.watch(session.id);
      const { turnId } = await f.agent.prompt({ sessionId: session.id, text: "fetch" });
      await reply(view, session.id, 1, "once");
      await view.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId);
      const [part] = await f.toolParts(session.id);
      expect(part?.result?.error?.code).toBe("permission_denied");
    });
  });
});
