import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { StoredSessionEvent } from "@coder/protocol";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import type { ScriptedTurn } from "../../../e2e/support/model-server";
import { sessionEventStream } from "../src/agent/testing/sse-events";
import { startTestService, waitForStatus } from "../src/testing/harness";

const repo = path.resolve(import.meta.dirname, "../../..");

const now = () => performance.now();
const READ_STEPS = 60;
const STREAMS = 20;
const FAN_STEPS = 10;

/**
 * The scripted model in its own process, as a real one would be: its work (parsing requests,
 * streaming answers) is not the agent's overhead.
 */
async function modelProcess(script: ScriptedTurn[]): Promise<{ baseURL: string; close(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), "coder-bench-model-"));
  const file = path.join(dir, "script.json");
  writeFileSync(file, JSON.stringify(script));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "e2e/support/model-server.ts", file],
    {
      cwd: repo,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const baseURL = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/listening at (\S+)/)?.[1];
      if (url) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`the model server exited with ${code}`)));
  });
  return {
    baseURL,
    close() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Step-by-step script of the read turn, then the fan-out turn. */
function script(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < READ_STEPS; i++) {
    // Different offsets: identical calls in a row would (rightly) stop to ask.
    turns.push({
      toolCalls: [{ name: "read", args: { path: "bench.txt", offset: (i % 40) + 1, limit: 10 } }],
    });
  }
  turns.push({ text: "done" });
  for (let i = 0; i < FAN_STEPS; i++) {
    turns.push({
      text: Array.from({ length: 20 }, (_, j) => `chunk ${i}.${j} `),
      delayMs: 3,
      toolCalls: [{ name: "read", args: { path: "bench.txt", offset: i + 1, limit: 5 } }],
    });
  }
  turns.push({ text: "finished" });
  return turns;
}

/**
 * The agent runtime's own cost, on the real service with a real workspace and a scripted model
 * that answers at once: (1) per `read` step, the time between two model requests minus the
 * daemon's own time for the read; (2) from an event being committed to its arrival at each of 20
 * browser-like SSE subscriptions.
 */
export async function run(): Promise<BenchResult[]> {
  const model = await modelProcess(script());
  const t = await startTestService({
    agentEnv: { CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL, CODER_MODELS: "scripted" },
  });
  const streams = new AbortController();
  const results: BenchResult[] = [];
  try {
    const { id: workspaceId } = await t.api.workspace.create.mutate({ name: "agent-bench" });
    await waitForStatus(t.api, workspaceId, "running", 60_000);
    await t.api.files.write.mutate({
      workspaceId,
      path: "bench.txt",
      content: `${"x".repeat(79)}\n`.repeat(50),
    });

    // The daemon's share of a step: the same read, called directly.
    const daemon = t.service.daemons.connection(workspaceId);
    const direct: number[] = [];
    for (let i = 0; i < 40; i++) {
      const s = now();
      await daemon.request("tools.execute", {
        tool: "read",
        args: { path: "bench.txt" },
        sessionId: "b",
        callId: `d${i}`,
      });
      direct.push(now() - s);
    }
    const daemonRead = percentile(direct.slice(10), 50);

    // (1) A turn of read steps, timed by when each model request reaches the model.
    const session = await t.api.session.create.mutate({ workspaceId });
    const done = turnEnd(t.service.agent, session.id, streams.signal);
    await t.api.session.prompt.mutate({ sessionId: session.id, text: "read it, many times" });
    await done;
    const log = (await (await fetch(`${model.baseURL}/__requests`)).json()) as { requests: { at: number }[] };
    const arrivals = log.requests.map((r) => r.at);
    const steps = arrivals.slice(1).map((at, i) => at - (arrivals[i] ?? at));
    const step50 = percentile(steps.slice(5), 50);
    const overhead50 = round(Math.max(0, step50 - daemonRead), 2);
    results.push({
      name: "agent step with a read, model request to model request, p50",
      value: round(step50, 2),
      unit: "ms",
    });
    results.push({
      name: "daemon read round trip p50 (inside a step)",
      value: round(daemonRead, 2),
      unit: "ms",
    });
    results.push({
      name: "agent overhead per read step p50 (step minus daemon read)",
      value: overhead50,
      unit: "ms",
      target: "≤ 10 ms",
      pass: overhead50 <= 10,
    });

    // (2) Fan-out: 20 SSE subscribers on a session while a turn streams text and runs tools.
    const fan = await t.api.session.create.mutate({ workspaceId });
    const committed = new Map<number, number>();
    const arrived: number[][] = [];
    void (async () => {
      for await (const e of t.service.agent.events.follow(fan.id, 0, streams.signal))
        committed.set(e.id, now());
    })();
    const readers = Array.from({ length: STREAMS }, async () => {
      const latencies: number[] = [];
      arrived.push(latencies);
      for await (const e of sessionEventStream(t.url, t.cookie, fan.id, streams.signal)) {
        const at = committed.get(e.id);
        if (at !== undefined) latencies.push(now() - at);
        if (e.type === "turn.finished") return;
      }
    });
    await sleep(500); // let every stream connect
    await t.api.session.prompt.mutate({ sessionId: fan.id, text: "stream to everyone" });
    await Promise.all(readers);
    const all = arrived.flat();
    const p99 = round(percentile(all, 99), 2);
    results.push({
      name: `event committed → arrival at ${STREAMS} SSE streams p99 (${all.length} deliveries)`,
      value: p99,
      unit: "ms",
      target: "≤ 50 ms",
      pass: p99 <= 50,
    });
    results.push({
      name: "event committed → SSE arrival p50",
      value: round(percentile(all, 50), 2),
      unit: "ms",
    });
  } finally {
    streams.abort();
    await t.close();
    model.close();
  }
  return results;
}

/** Resolves when the session's next turn has ended well. */
async function turnEnd(
  agent: { follow(id: string, last: string | null, signal: AbortSignal): AsyncGenerator<StoredSessionEvent> },
  sessionId: string,
  signal: AbortSignal,
): Promise<void> {
  for await (const e of agent.follow(sessionId, null, signal)) {
    if (e.type !== "turn.finished") continue;
    if (e.turn.status !== "done") throw new Error(`the bench turn ended ${e.turn.status}: ${e.turn.error}`);
    return;
  }
}
