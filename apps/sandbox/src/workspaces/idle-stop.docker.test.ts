import { setTimeout as sleep } from "node:timers/promises";
import type { Workspace } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectEvents } from "../agent/testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "../agent/testing/scripted-agent";
import { sessionEventStream } from "../agent/testing/sse-events";
import { collabSocket, openDocument } from "../collab/testing/collab-client";
import { createPostgresDatabase } from "../db/testing/test-database";
import {
  joinShare,
  openTerminal,
  type SharedPlace,
  sharedPlace,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { until } from "../testing/until";

const IDLE_SECONDS = 3;

describe(`a workspace nothing uses for CODER_IDLE_STOP_SECONDS (${IDLE_SECONDS} s here)`, () => {
  let agent: ScriptedAgent;
  const streams = new AbortController();
  beforeAll(async () => {
    agent = await startScriptedAgent({
      workspaceName: "first",
      env: { CODER_IDLE_STOP_SECONDS: String(IDLE_SECONDS) },
    });
  });
  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  /** The workspace as the list shows it: listing is no use of any one workspace, `get` would be. */
  async function listed(id: string): Promise<Workspace> {
    const found = (await agent.t.api.workspace.list.query()).find((w) => w.id === id);
    if (!found) throw new Error(`workspace ${id} is not listed`);
    return found;
  }

  async function untilListed(id: string, status: Workspace["status"]): Promise<Workspace> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const workspace = await listed(id);
      if (workspace.status === status) return workspace;
      if (Date.now() > deadline) throw new Error(`workspace ${id} is still ${workspace.status}`);
      await sleep(100);
    }
  }

  async function runningWorkspace(name: string): Promise<string> {
    const { id } = await agent.t.api.workspace.create.mutate({ name });
    await waitForStatus(agent.t.api, id, "running");
    return id;
  }

  it("is stopped, says it was for being idle, and works again once started: files, terminal, agent", async () => {
    const { t, model } = agent;
    const id = await runningWorkspace("forgotten");
    await t.api.files.write.mutate({ workspaceId: id, path: "notes.txt", content: "kept\n" });

    const stopped = await untilListed(id, "stopped");
    expect(stopped.idleStoppedAt).toEqual(expect.any(String));

    await t.api.workspace.start.mutate({ workspaceId: id });
    const resumed = await waitForStatus(t.api, id, "running");
    expect(resumed.idleStoppedAt).toBeUndefined();
    expect((await t.api.files.read.query({ workspaceId: id, path: "notes.txt" })).content).toBe("kept\n");
    const term = await openTerminal(t.url, t.cookie, id, "main");
    term.send("echo back-$((40+2))\r");
    await term.waitFor(/back-42/);
    term.ws.close();
    model.push({ toolCalls: [{ name: "read", args: { path: "notes.txt" } }] }, { text: "Read it." });
    const session = await t.api.session.create.mutate({ workspaceId: id });
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: session.id, text: "read my notes" });
    const detail = async () => t.api.session.get.query({ sessionId: session.id });
    const deadline = Date.now() + 60_000;
    while ((await detail()).turn?.id === turnId) {
      if (Date.now() > deadline) throw new Error("the turn never finished");
      await sleep(100);
    }
    const parts = (await detail()).messages.flatMap((m) => m.parts);
    expect(parts.some((p) => p.type === "tool" && p.tool === "read" && p.state === "completed")).toBe(true);
  });

  it("is woken by a guest who opens it, while one its owner stopped stays stopped for them", async () => {
    const { t } = agent;
    const id = await runningWorkspace("shared");
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "viewer" });
    const viewer = trpcClient(t.url, await joinShare(t.url, link.url, "Vera"));
    await t.api.files.write.mutate({ workspaceId: id, path: "plan.md", content: "kept\n" });
    await untilListed(id, "stopped");

    // Several tabs opening it at once start it once.
    const opened = await Promise.all(
      [1, 2, 3].map(() => viewer.workspace.resume.mutate({ workspaceId: id })),
    );
    expect(opened.every((w) => w.status === "starting" || w.status === "running")).toBe(true);
    const awake = await waitForStatus(viewer, id, "running");
    expect(awake.idleStoppedAt).toBeUndefined();
    expect((await viewer.files.read.query({ workspaceId: id, path: "plan.md" })).content).toBe("kept\n");

    await t.api.workspace.stop.mutate({ workspaceId: id });
    await expect(viewer.workspace.resume.mutate({ workspaceId: id })).rejects.toThrow(
      /its owner stopped it: only the owner can start it again/,
    );
    await expect(viewer.workspace.start.mutate({ workspaceId: id })).rejects.toThrow(/FORBIDDEN|owner/i);
    expect((await listed(id)).status).toBe("stopped");
  });

  it("keeps running while a terminal is open or an agent turn runs, and is stopped once they end", async () => {
    const { t, model } = agent;
    // The control is made first, so the stopper (newest first) looks at it last in each pass; its
    // own terminal keeps it running until the others are set up.
    const control = await runningWorkspace("control");
    const keepControl = await openTerminal(t.url, t.cookie, control, "main");
    const [withTerminal, withTurn] = await Promise.all(["terminal", "turn"].map((n) => runningWorkspace(n)));
    if (!withTerminal || !withTurn) throw new Error("two workspaces expected");
    const term = await openTerminal(t.url, t.cookie, withTerminal, "main");
    await term.waitFor(/\$ /);
    model.push({ text: "Thinking…", hang: true });
    const session = await t.api.session.create.mutate({ workspaceId: withTurn });
    await t.api.session.prompt.mutate({ sessionId: session.id, text: "take your time" });
    await model.waitForRequests(model.requests.length + 1);
    // The control is the last one used: without the terminal and the turn, the other two would be
    // stopped no later than it.
    keepControl.ws.close();

    await untilListed(control, "stopped");
    expect((await listed(withTerminal)).status).toBe("running");
    expect((await listed(withTurn)).status).toBe("running");

    term.ws.close();
    await t.api.session.abort.mutate({ sessionId: session.id });
    expect((await untilListed(withTerminal, "stopped")).idleStoppedAt).toEqual(expect.any(String));
    expect((await untilListed(withTurn, "stopped")).idleStoppedAt).toEqual(expect.any(String));
  });

  it("is not stopped while someone follows it live (a subscription)", async () => {
    const { t, model } = agent;
    // Made one after the other: the stopper (newest first) looks at the control last in each pass.
    const control = await runningWorkspace("control-2");
    const keepControl = await openTerminal(t.url, t.cookie, control, "main");
    const watched = await runningWorkspace("watched");
    const session = await t.api.session.create.mutate({ workspaceId: watched });
    const events = collectEvents(sessionEventStream(t.url, t.cookie, session.id, streams.signal));
    model.push({ text: "Done." });
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: session.id, text: "hi" });
    // The stream is open once it delivers; the turn is over.
    await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 30_000);
    keepControl.ws.close();

    await untilListed(control, "stopped");
    expect((await listed(watched)).status).toBe("running");
  });

  it("is not stopped while someone has a document open live, and is once they leave", async () => {
    const { t } = agent;
    const control = await runningWorkspace("control-3");
    const keepControl = await openTerminal(t.url, t.cookie, control, "main");
    const editing = await runningWorkspace("editing");
    await t.api.files.write.mutate({ workspaceId: editing, path: "notes.md", content: "draft\n" });
    const socket = collabSocket(t.url, t.cookie, editing);
    const open = openDocument(socket, "notes.md");
    await until(() => open.text() === "draft\n", "the document is live");
    keepControl.ws.close();

    await untilListed(control, "stopped");
    expect((await listed(editing)).status).toBe("running");
    open.provider.destroy();
    socket.destroy();
    expect((await untilListed(editing, "stopped")).idleStoppedAt).toEqual(expect.any(String));
  });
});

describe("two service instances on one database", () => {
  let place: SharedPlace | undefined;
  afterAll(async () => {
    await place?.close();
  });

  it("never stops a workspace that people use through the other instance", async () => {
    // Several instances share a PostgreSQL database (one refuses to start beside another on SQLite).
    place = sharedPlace({
      CODER_IDLE_STOP_SECONDS: String(IDLE_SECONDS),
      CODER_DATABASE_URL: await createPostgresDatabase(),
    });
    const a = await place.start();
    const b = await place.start();
    const runningOnA = async (name: string) => {
      const { id } = await a.api.workspace.create.mutate({ name });
      await waitForStatus(a.api, id, "running");
      return id;
    };
    const status = async (id: string) =>
      (await a.api.workspace.list.query()).find((w) => w.id === id)?.status;
    const untilStopped = async (id: string) => {
      const deadline = Date.now() + 60_000;
      while ((await status(id)) !== "stopped") {
        if (Date.now() > deadline) throw new Error(`workspace ${id} was never stopped`);
        await sleep(100);
      }
    };
    // Made through A, used through B only.
    const used = await runningOnA("used-through-b");
    const term = await openTerminal(b.service.url, b.cookie, used, "main");
    await term.waitFor(/\$ /);
    // Two workspaces made one after the other once B held it, each stopped for idleness: A has
    // since had full passes in which it would have stopped the one used through B, had it not known.
    await untilStopped(await runningOnA("later"));
    await untilStopped(await runningOnA("later-still"));
    expect(await status(used)).toBe("running");
    term.ws.close();
  });
});

describe("two service instances looking at the same idle workspaces", () => {
  let place: SharedPlace | undefined;
  const log: string[] = [];
  afterAll(async () => {
    await place?.close();
  });

  it("stops each of them once, without an error", async () => {
    // PostgreSQL: instances on it share their transient states (creating, stopping), as in production.
    place = sharedPlace(
      { CODER_IDLE_STOP_SECONDS: String(IDLE_SECONDS), CODER_DATABASE_URL: await createPostgresDatabase() },
      (line) => log.push(line),
    );
    const a = await place.start();
    await place.start();
    const runningOnA = async (name: string) => {
      const { id } = await a.api.workspace.create.mutate({ name });
      await waitForStatus(a.api, id, "running");
      return id;
    };
    const stopped = async (ids: string[]) => {
      const list = await a.api.workspace.list.query();
      return ids.every((id) => list.find((w) => w.id === id)?.status === "stopped");
    };
    // Idle at the same time: each instance's look finds all three, and stopping one takes a while.
    const ids = await Promise.all(["one", "two", "three"].map(runningOnA));
    await until(() => stopped(ids), "all three are stopped for idleness", 60_000);
    // One made after them and stopped too: both instances have since finished the looks that found them.
    const witness = await runningOnA("witness");
    await until(() => stopped([witness]), "the one made after them is stopped too", 60_000);
    for (const id of ids)
      expect(log.filter((line) => line.startsWith(`workspace ${id}: stopping it`))).toHaveLength(1);
    expect(log.filter((line) => line.startsWith("idle stop"))).toEqual([]);
  });
});
