import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { PresencePerson } from "@coder/protocol";
import pg from "pg";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { sessionEventStream } from "../src/agent/testing/sse-events";
import { loadConfig } from "../src/config";
import { startPostgresServer } from "../src/db/testing/postgres-server";
import { startService } from "../src/service";
import { login, newInstance, removeInstance, requireImage, trpcClient } from "../src/testing/harness";
import { subscriptionEvents } from "../src/testing/trpc-sse";

const now = () => performance.now();
const EVENTS = 300;
const SPACING_MS = 10;

const PRESENCE_CHANGES = 100;

/**
 * A tab on A says which file it shows, one new file after the other; the time until a watcher on
 * B (through the database and the live bus) and one on A itself see that file on the board.
 */
async function presenceLatencies(
  urlA: string,
  urlB: string,
  cookieA: string,
  cookieB: string,
  signal: AbortSignal,
): Promise<{ onA: number[]; onB: number[] }> {
  const sent = new Map<string, number>();
  const watcher = (url: string, cookie: string, clientId: string) => {
    const state = { latencies: [] as number[], seen: new Set<string>(), done: Promise.resolve() };
    state.done = (async () => {
      const input = { workspaceId: "benchworkspace", clientId };
      for await (const people of subscriptionEvents<PresencePerson[]>(
        url,
        cookie,
        "presence.watch",
        input,
        signal,
      )) {
        for (const person of people) {
          const at = person.file ? sent.get(person.file) : undefined;
          if (person.file && at !== undefined && !state.seen.has(person.file)) {
            state.seen.add(person.file);
            state.latencies.push(now() - at);
          }
        }
        if (state.latencies.length === PRESENCE_CHANGES) return;
      }
    })();
    return state;
  };
  const onA = watcher(urlA, cookieA, "bench-watch-a");
  const onB = watcher(urlB, cookieB, "bench-watch-b");
  const api = trpcClient(urlA, cookieA);
  // The tab that changes files: A's watcher is that tab.
  const ready = "ready.txt";
  sent.set(ready, now());
  const isReady = () => onA.seen.has(ready) && onB.seen.has(ready);
  while (!isReady()) {
    await api.presence.openFile.mutate({
      workspaceId: "benchworkspace",
      clientId: "bench-watch-a",
      path: ready,
    });
    await sleep(50);
  }
  onA.latencies.length = 0;
  onB.latencies.length = 0;
  for (let i = 0; i < PRESENCE_CHANGES; i++) {
    const file = `file-${i}.ts`;
    sent.set(file, now());
    await api.presence.openFile.mutate({
      workspaceId: "benchworkspace",
      clientId: "bench-watch-a",
      path: file,
    });
    while (!onA.seen.has(file) || !onB.seen.has(file)) await sleep(2);
  }
  await Promise.all([onA.done, onB.done]);
  return { onA: onA.latencies, onB: onB.latencies };
}

/**
 * Two service instances on one PostgreSQL database (a throwaway server): events committed on A
 * (the event log's append resolves once its transaction has committed), timed to their arrival
 * at a browser-like SSE subscriber on B and, side by side, at one on A itself.
 */
export async function run(): Promise<BenchResult[]> {
  const server = await startPostgresServer();
  const admin = new pg.Client(server.url);
  await admin.connect();
  await admin.query("CREATE DATABASE bench");
  await admin.end();
  const url = new URL(server.url);
  url.pathname = "/bench";
  const instance = newInstance();
  const dirs = [
    mkdtempSync(path.join(tmpdir(), "coder-bench-a-")),
    mkdtempSync(path.join(tmpdir(), "coder-bench-b-")),
  ];
  const config = (dataDir: string) =>
    loadConfig({
      CODER_IMAGE: requireImage(),
      CODER_DATA_DIR: dataDir,
      CODER_DATABASE_URL: url.toString(),
      CODER_PORT: "0",
      CODER_INSTANCE: instance,
    });
  const quiet = () => undefined;
  const a = await startService(config(dirs[0] ?? ""), quiet);
  const b = await startService(config(dirs[1] ?? ""), quiet);
  const streams = new AbortController();
  try {
    const token = a.adminToken ?? "";
    const [cookieA, cookieB] = await Promise.all([login(a.url, token), login(b.url, token)]);
    // A workspace row is all a session needs (no container: nothing here runs in it).
    const db = new pg.Client(url.toString());
    await db.connect();
    await db.query(
      "insert into workspaces (id, name, egress, image, created_at, desired_state) values ('benchworkspace', 'bench', false, 'none', now(), 'stopped')",
    );
    await db.end();
    const session = await a.agent.create({ workspaceId: "benchworkspace", agent: "build" });

    const committed = new Map<number, number>();
    const subscriber = (serviceUrl: string, cookie: string) => {
      const state = { latencies: [] as number[], lastSeen: 0, done: Promise.resolve() };
      state.done = (async () => {
        for await (const e of sessionEventStream(serviceUrl, cookie, session.id, streams.signal)) {
          state.lastSeen = e.id;
          const at = committed.get(e.id);
          if (at !== undefined) state.latencies.push(now() - at);
          if (state.latencies.length === EVENTS) return;
        }
      })();
      return state;
    };
    const onA = subscriber(a.url, cookieA);
    const onB = subscriber(b.url, cookieB);
    // Both streams connected and following: an untimed event reaches both first.
    const ready = await a.agent.events.append(session.id, { type: "todos.updated", todos: [] });
    while (onA.lastSeen < ready.id || onB.lastSeen < ready.id) await sleep(20);
    for (let i = 0; i < EVENTS; i++) {
      const stored = await a.agent.events.append(session.id, {
        type: "todos.updated",
        todos: [{ id: String(i), content: `item ${i}`, status: "pending", priority: "low" }],
      });
      committed.set(stored.id, now());
      await sleep(SPACING_MS);
    }
    await Promise.all([onA.done, onB.done]);
    const presence = await presenceLatencies(a.url, b.url, cookieA, cookieB, streams.signal);
    const row = (name: string, values: number[], p: number): BenchResult => ({
      name,
      value: round(percentile(values, p), 2),
      unit: "ms",
    });
    return [
      row(
        `presence: a tab on A shows another file → a watcher on B sees it, p50 (${PRESENCE_CHANGES} changes)`,
        presence.onB,
        50,
      ),
      row("presence → watcher on B, p99", presence.onB, 99),
      row("same, watcher on A itself (one instance), p50", presence.onA, 50),
      row("same, watcher on A itself (one instance), p99", presence.onA, 99),
      row(
        `event committed on A → SSE subscriber on B, p50 (${EVENTS} events, PostgreSQL)`,
        onB.latencies,
        50,
      ),
      row("event committed on A → SSE subscriber on B, p99", onB.latencies, 99),
      row("same, subscriber on A itself (one instance), p50", onA.latencies, 50),
      row("same, subscriber on A itself (one instance), p99", onA.latencies, 99),
    ];
  } finally {
    streams.abort();
    await b.close();
    await a.close();
    await removeInstance(instance);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
}
