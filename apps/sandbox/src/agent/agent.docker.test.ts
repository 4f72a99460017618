import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { StoredSessionEvent } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../../../e2e/support/model-server";
import {
  login,
  newInstance,
  removeInstance,
  requireImage,
  spawnService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { collectEvents, type EventLogView, isType } from "./testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "./testing/scripted-agent";
import { sessionEventStream } from "./testing/sse-events";

describe("the agent in a real workspace", () => {
  let agent: ScriptedAgent;
  let model: ModelServer;
  let t: TestService;
  let workspaceId: string;
  const streams = new AbortController();

  beforeAll(async () => {
    agent = await startScriptedAgent({ workspaceName: "agent", permissions: { "*": { bash: "ask" } } });
    ({ model, t, workspaceId } = agent);
  });

  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  const session = () => agent.session(streams.signal);

  const finished = (events: EventLogView, turnId: string) =>
    events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);

  it("reads a file, edits it, and the file in the workspace changes", async () => {
    await t.api.files.write.mutate({ workspaceId, path: "settings.py", content: "DEBUG = True\n" });
    model.push(
      { toolCalls: [{ name: "read", args: { path: "settings.py" } }] },
      {
        toolCalls: [
          {
            name: "edit",
            args: { path: "settings.py", old_string: "DEBUG = True", new_string: "DEBUG = False" },
          },
        ],
      },
      { text: "Debug mode is off." },
    );
    const s = await session();
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: s.id, text: "Turn debug off" });
    const end = await finished(s.events, turnId);
    expect(end.type === "turn.finished" && end.turn.status).toBe("done");
    const file = await t.api.files.read.query({ workspaceId, path: "settings.py" });
    expect(file.content).toBe("DEBUG = False\n");
    const detail = await t.api.session.get.query({ sessionId: s.id });
    const tools = detail.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool");
    expect(tools.map((p) => (p.type === "tool" ? [p.tool, p.state] : []))).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
    ]);
  });

  it("asks before a shell command, runs it once approved, and streams its output", async () => {
    const command = "for i in 1 2 3; do echo line$i; sleep 0.4; done";
    model.push({ toolCalls: [{ name: "bash", args: { command } }] }, { text: "Ran it." });
    const s = await session();
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: s.id, text: "count" });
    const asked = await s.events.waitFor(isType("approval.asked"), 30_000);
    expect(asked.request).toMatchObject({ permission: "bash", patterns: [command] });
    await t.api.session.respond.mutate({ sessionId: s.id, requestId: asked.request.id, reply: "once" });
    await finished(s.events, turnId);
    const outputs = s.events.all.flatMap((e) =>
      e.type === "part.updated" && e.part.type === "tool" && e.part.state === "running" && e.part.progress
        ? [String(e.part.progress.stdout ?? "")]
        : [],
    );
    // Output arrived while the command ran, before its result.
    expect(outputs.some((o) => o.includes("line1") && !o.includes("line3"))).toBe(true);
    expect(model.toolResults(model.requests.length - 1).join("")).toContain("line3");
  });

  it("hands a rejection's message to the model", async () => {
    model.push(
      { toolCalls: [{ name: "bash", args: { command: "rm -rf node_modules" } }] },
      { text: "Fine." },
    );
    const s = await session();
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: s.id, text: "clean up" });
    const asked = await s.events.waitFor(isType("approval.asked"), 30_000);
    const before = model.requests.length;
    await t.api.session.respond.mutate({
      sessionId: s.id,
      requestId: asked.request.id,
      reply: "reject",
      message: "keep node_modules, I need it offline",
    });
    const end = await finished(s.events, turnId);
    expect(end.type === "turn.finished" && end.turn.status).toBe("done");
    expect(model.toolResults(before).join("")).toContain("keep node_modules, I need it offline");
  });

  it("waits for the answer to a question", async () => {
    const questions = [{ question: "Which test runner?", options: ["vitest", "jest"] }];
    model.push({ toolCalls: [{ name: "question", args: { questions } }] }, { text: "Using vitest." });
    const s = await session();
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: s.id, text: "add tests" });
    const asked = await s.events.waitFor(isType("question.asked"), 30_000);
    const before = model.requests.length;
    await t.api.session.answer.mutate({
      sessionId: s.id,
      requestId: asked.request.id,
      answers: [["vitest"]],
    });
    await finished(s.events, turnId);
    expect(model.toolResults(before).join("")).toContain("-> vitest");
  });

  it("refuses unusable input with a readable message", async () => {
    // The session is checked (and the caller's role on its workspace) before the rest of the input.
    await expect(t.api.session.prompt.mutate({ sessionId: "nope", text: "" })).rejects.toThrow(
      /sessionId: not a valid id/,
    );
    const { id } = await t.api.session.create.mutate({ workspaceId });
    await expect(t.api.session.prompt.mutate({ sessionId: id, text: "" })).rejects.toThrow(
      /text: write something for the agent/,
    );
    await expect(t.api.session.get.query({ sessionId: "ses_doesnotexist" })).rejects.toThrow(
      /does not exist/,
    );
  });
});

describe("a service killed with SIGKILL in the middle of a turn", () => {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-agent-kill-"));
  let model: ModelServer;
  let child: ChildProcess | undefined;
  const streams = new AbortController();

  afterAll(async () => {
    streams.abort();
    child?.kill("SIGKILL");
    await model?.close();
    await removeInstance(instance);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every part it had committed and marks the turn interrupted", async () => {
    model = await startModelServer({
      script: [
        { toolCalls: [{ name: "list", args: {} }] },
        { text: Array.from({ length: 200 }, (_, i) => `word${i} `), delayMs: 30, hang: true },
      ],
    });
    const env = {
      CODER_IMAGE: requireImage(),
      CODER_DATA_DIR: dataDir,
      CODER_PORT: "0",
      CODER_INSTANCE: instance,
      CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
      CODER_MODELS: "scripted",
    };
    const first = await spawnService(env);
    child = first.child;
    const cookie = await login(first.url, first.token ?? "");
    const api = trpcClient(first.url, cookie);
    const { id: workspaceId } = await api.workspace.create.mutate({ name: "crash" });
    await waitForStatus(api, workspaceId, "running");
    const { id: sessionId } = await api.session.create.mutate({ workspaceId });
    const events = collectEvents(sessionEventStream(first.url, cookie, sessionId, streams.signal));
    await api.session.prompt.mutate({ sessionId, text: "list the files, then talk" });
    await events.waitFor(
      (e) => e.type === "part.updated" && e.part.type === "tool" && e.part.state === "completed",
      60_000,
    );
    await events.waitFor(
      (e) => e.type === "part.delta" && events.all.filter(isType("part.delta")).length >= 3,
      30_000,
    );
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    const seen: StoredSessionEvent[] = [...events.all];

    const second = await spawnService(env);
    child = second.child;
    const api2 = trpcClient(second.url, await login(second.url, first.token ?? ""));
    const detail = await api2.session.get.query({ sessionId });
    expect(detail.turn).toBeNull();
    const replay = collectEvents(
      sessionEventStream(second.url, await login(second.url, first.token ?? ""), sessionId, streams.signal),
    );
    const end = await replay.waitFor(isType("turn.finished"), 30_000);
    expect(end.turn).toMatchObject({ status: "interrupted" });
    // Everything a client saw before the crash is still there, in the same order, with the same ids.
    expect(replay.all.slice(0, seen.length)).toEqual(seen);
    const streamed = seen.flatMap((e) => (e.type === "part.delta" ? [e.delta] : [])).join("");
    const text = detail.messages[1]?.parts.find((p) => p.type === "text");
    expect(text?.type === "text" && text.text.startsWith(streamed)).toBe(true);
    expect(detail.messages[1]?.parts.some((p) => p.type === "tool" && p.state === "completed")).toBe(true);
  });
});
