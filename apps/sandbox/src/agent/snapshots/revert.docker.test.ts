import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelServer } from "../../../../../e2e/support/model-server";
import { stateVolumeExists } from "../../docker/testing/engine-probes";
import { execIn, type TestService } from "../../testing/harness";
import { collectEvents } from "../testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "../testing/scripted-agent";
import { sessionEventStream } from "../testing/sse-events";

describe("turn revert in a real workspace", () => {
  let agent: ScriptedAgent;
  let model: ModelServer;
  let t: TestService;
  let workspaceId: string;
  const streams = new AbortController();

  beforeAll(async () => {
    agent = await startScriptedAgent({ workspaceName: "snapshots" });
    ({ model, t, workspaceId } = agent);
  });

  afterAll(async () => {
    streams.abort();
    await agent?.close();
  });

  const exists = async (file: string) =>
    (await execIn(t.instance, workspaceId, ["test", "-e", `/workspace/${file}`])).code === 0;
  const read = async (file: string) => (await t.api.files.read.query({ workspaceId, path: file })).content;

  it("reverts a turn's edits and new files, keeps the snapshots out of the workspace, and undoes the revert", async () => {
    await t.api.files.write.mutate({ workspaceId, path: "app.py", content: "DEBUG = True\n" });
    model.push(
      { toolCalls: [{ name: "read", args: { path: "app.py" } }] },
      {
        toolCalls: [
          { name: "edit", args: { path: "app.py", old_string: "DEBUG = True", new_string: "DEBUG = False" } },
          { name: "write", args: { path: "lib/util.py", content: "def util():\n    pass\n" } },
        ],
      },
      { text: "Done." },
    );
    const { id: sessionId } = await t.api.session.create.mutate({ workspaceId });
    const events = collectEvents(sessionEventStream(t.url, t.cookie, sessionId, streams.signal));
    const { turnId } = await t.api.session.prompt.mutate({ sessionId, text: "turn debug off, add a util" });
    await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);
    await events.waitFor((e) => e.type === "turn.changes" && e.turnId === turnId && e.changedFiles);

    const ref = { sessionId, turnId };
    const diff = await t.api.session.turnDiff.query(ref);
    expect(diff.files.map((f) => [f.path, f.status])).toEqual([
      ["app.py", "modified"],
      ["lib/util.py", "added"],
    ]);
    const store = await execIn(t.instance, workspaceId, ["test", "-f", "/var/lib/coder/snapshots.git/HEAD"]);
    expect(store.code).toBe(0);
    const listing = await execIn(t.instance, workspaceId, ["ls", "-A", "/workspace"]);
    expect(listing.out.trim().split("\n")).toEqual(["app.py", "lib"]);

    await t.api.files.write.mutate({ workspaceId, path: "notes.md", content: "mine\n" });
    await t.api.session.revertTurn.mutate(ref);
    expect(await read("app.py")).toBe("DEBUG = True\n");
    expect(await exists("lib/util.py")).toBe(false);
    expect(await read("notes.md")).toBe("mine\n");
    expect((await t.api.session.get.query({ sessionId })).turns[0]).toMatchObject({
      changedFiles: true,
      reverted: true,
    });

    await t.api.session.undoRevert.mutate(ref);
    expect(await read("app.py")).toBe("DEBUG = False\n");
    expect(await read("lib/util.py")).toBe("def util():\n    pass\n");
  });

  it("removes the snapshot volume with the workspace", async () => {
    expect(await stateVolumeExists(t.instance, workspaceId)).toBe(true);
    await t.api.workspace.delete.mutate({ workspaceId });
    expect(await stateVolumeExists(t.instance, workspaceId)).toBe(false);
  });
});
