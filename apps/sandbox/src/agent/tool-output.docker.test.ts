import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelServer, RecordedRequest } from "../../../../e2e/support/model-server";
import type { TestService } from "../testing/harness";
import { collectEvents, type EventLogView } from "./testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "./testing/scripted-agent";
import { sessionEventStream } from "./testing/sse-events";

/** Where a cut output was saved, as the model was told. */
const SAVED = /saved to (\S+\.txt)\./;

/** The last thing the model was told, when it is a tool result. */
function lastToolResult(request: RecordedRequest): string {
  const last = request.body.messages.at(-1);
  return last?.role === "tool" ? JSON.stringify(last.content) : "";
}

/**
 * What the scripted model does once its script has run out: told that an output was saved
 * somewhere, it reads the end of it there; otherwise it says it is done.
 */
function readWhatWasSaved(request: RecordedRequest) {
  const saved = lastToolResult(request).match(SAVED)?.[1];
  if (!saved) return { text: "done" };
  return { toolCalls: [{ name: "read", args: { path: saved, offset: -2 } }] };
}

describe("tool output in a real workspace", () => {
  let agent: ScriptedAgent;
  let model: ModelServer;
  let t: TestService;
  let dataDir: string;
  let workspaceId: string;
  const streams = new AbortController();

  beforeAll(async () => {
    // A data folder with outputs an earlier version spilled on the host.
    dataDir = mkdtempSync(path.join(tmpdir(), "coder-tool-output-"));
    mkdirSync(path.join(dataDir, "tool-output"));
    writeFileSync(path.join(dataDir, "tool-output", "prt_old.txt"), "left over\n");
    agent = await startScriptedAgent({
      workspaceName: "output",
      model: { fallback: readWhatWasSaved },
      env: { CODER_DATA_DIR: dataDir },
    });
    ({ model, t, workspaceId } = agent);
  });

  afterAll(async () => {
    streams.abort();
    await agent?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Prompts a new session and waits for its turn to end; the session's events as the browser gets them. */
  async function runTurn(text: string): Promise<{ id: string; events: EventLogView }> {
    const { id } = await t.api.session.create.mutate({ workspaceId });
    const events = collectEvents(sessionEventStream(t.url, t.cookie, id, streams.signal));
    const { turnId } = await t.api.session.prompt.mutate({ sessionId: id, text });
    const end = await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 120_000);
    expect(end.type === "turn.finished" && end.turn.status).toBe("done");
    return { id, events };
  }

  /** Every tool result the model was told in this test, in order. */
  const toolResultsSince = (first: number) =>
    model.requests
      .slice(first)
      .map(lastToolResult)
      .filter((r) => r !== "");

  it("removes the outputs an earlier version left in the host's data folder", () => {
    expect(existsSync(path.join(dataDir, "tool-output"))).toBe(false);
  });

  it("gives the model a sub-agent's long answer cut, with the rest at a path it can read in the container", async () => {
    const first = model.requests.length;
    const findings = Array.from({ length: 3000 }, (_, i) => `finding ${i + 1}`).join("\n");
    model.push(
      { toolCalls: [{ name: "task", args: { agent: "explore", objective: "list every finding" } }] },
      { text: findings },
    );
    await runTurn("investigate");
    const [cut, readBack] = toolResultsSince(first);
    expect(cut).toContain("finding 2000");
    expect(cut).not.toContain("finding 3000");
    expect(cut?.match(SAVED)?.[1]).toMatch(/^\/tmp\/coder-tool-output\/prt_[\w-]+\.txt$/);
    expect(readBack).toContain("finding 3000");
    expect(model.requests.slice(first).map((r) => JSON.stringify(r.body))).not.toContainEqual(
      expect.stringContaining(dataDir),
    );
  });

  it("stores a flooding command's live output bounded, and the model reads its cut output in the container", async () => {
    const first = model.requests.length;
    // Far more output than bash keeps, printed for seconds: its capped output repeats meanwhile.
    const command = "timeout 10 yes coder; true";
    model.push({ toolCalls: [{ name: "bash", args: { command } }] });
    const { events } = await runTurn("flood");
    // Every event of the session, as stored and sent to the browser.
    const bytes = events.all.reduce((sum, e) => sum + JSON.stringify(e).length, 0);
    expect(bytes).toBeLessThan(256 * 1024);
    const [cut, readBack] = toolResultsSince(first);
    expect(cut?.match(SAVED)?.[1]).toMatch(/^\/tmp\/coder-tool-output\/prt_[\w-]+\.txt$/);
    // The end of what bash kept, which the model's cut text did not show.
    expect(cut).not.toContain("[output truncated]");
    expect(readBack).toContain("[output truncated]");
    expect(JSON.stringify(model.requests.slice(first).map((r) => r.body))).not.toContain(dataDir);
  });
});
