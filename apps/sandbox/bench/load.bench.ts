import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { COLLAB_TEXT } from "@coder/protocol";
import type { TRPCClient } from "@trpc/client";
import pg from "pg";
import WebSocket from "ws";
import * as Y from "yjs";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { type ModelServer, startModelServer } from "../../../e2e/support/model-server";
import { collabSocket, type OpenDocument, openDocument } from "../src/collab/testing/collab-client";
import { startPostgresServer } from "../src/db/testing/postgres-server";
import {
  login,
  newInstance,
  removeInstance,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "../src/testing/harness";
import { until } from "../src/testing/until";
import type { AppRouter } from "../src/trpc/router";

/**
 * How many people one service instance serves (issue 23 item 5). N simulated people, 25 to a
 * workspace (a team on one project: the people of one workspace share its live document, as
 * they would), each a Yjs client typing 5 characters a second into the shared file, each with a
 * terminal streaming 10 KB/s to them, and one agent turn a minute per workspace through the scripted
 * model. The service runs as its own process (`npm start`'s entry point), the people in this one,
 * so the service's CPU (its process's CPU time / wall time) and RSS are its own; what this process
 * costs is reported beside them — on 2 cores the two compete.
 */
const PEOPLE_PER_WORKSPACE = 25;
/** CODER_LOAD_PEOPLE and CODER_LOAD_INSTANCES (comma-separated) pick other steps and curves. */
const STEPS = (process.env.CODER_LOAD_PEOPLE ?? "25,50,100,200,400").split(",").map(Number);
const TYPING_EVERY_MS = 200;
const AGENT_EVERY_MS = 60_000;
/** A step is measured once everyone of it types and streams, for this long. */
const SETTLE_MS = 5_000;
const MEASURE_MS = 20_000;
/** A curve stops after the first step past this (the service no longer serves that many). */
const GIVE_UP_P99_MS = 1_000;
const TERMINAL_BYTES_PER_SECOND = 10_000;
/** CODER_LOAD_TERMINALS=0: people without terminals, to tell the terminals' share of the machine apart. */
const WITH_TERMINALS = process.env.CODER_LOAD_TERMINALS !== "0";
/** Ten 1000-byte lines a second with no process started per line: `read -t` on a FIFO is the sleep. */
const PRINTER = `f=/tmp/load$$; mkfifo $f; exec 9<>$f; s=$(printf '%0999d' 0); while :; do for i in 0 1 2 3 4 5 6 7 8 9; do echo $s; done; read -t 1 -u 9; done\r`;

const now = () => performance.now();

/** CPU time (user + system) of a process, in ms, and its resident memory, in MiB. */
function processUsage(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  // Linux reports CPU times in clock ticks of 1/100 s.
  return { cpuMs: ticks * 10, rssMiB: Number(rss?.[1] ?? 0) / 1024 };
}

interface Instance {
  child: ChildProcess;
  url: string;
  cookie: string;
  api: TRPCClient<AppRouter>;
}

/** The scripted model: every turn reads the shared file, then says it is done. */
function agentModel(): Promise<ModelServer> {
  return startModelServer({
    fallback: (request) =>
      request.body.messages.at(-1)?.role === "tool"
        ? { text: "I read it." }
        : { toolCalls: [{ name: "read", args: { path: "shared.txt" } }] },
  });
}

const profileDir = process.env.CODER_LOAD_PROFILE_DIR;

/** `count` service processes on one container label: on one PostgreSQL database when more than one. */
async function startInstances(count: number, model: ModelServer) {
  const instance = newInstance();
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const database = count > 1 ? await startPostgresServer() : undefined;
  const close = async () => {
    for (const child of children) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(15_000)]);
      child.kill("SIGKILL");
    }
    await removeInstance(instance);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await database?.stop();
  };
  try {
    let databaseUrl: string | undefined;
    if (database) {
      const admin = new pg.Client(database.url);
      await admin.connect();
      await admin.query("CREATE DATABASE load");
      await admin.end();
      const url = new URL(database.url);
      url.pathname = "/load";
      databaseUrl = url.toString();
    }
    const instances: Instance[] = [];
    let token: string | undefined;
    for (let i = 0; i < count; i++) {
      const dir = mkdtempSync(path.join(tmpdir(), "coder-load-"));
      dirs.push(dir);
      const started = await spawnService(
        {
          CODER_IMAGE: requireImage(),
          CODER_DATA_DIR: dir,
          CODER_PORT: "0",
          CODER_INSTANCE: instance,
          CODER_CPUS: "1",
          CODER_MEMORY_MB: "1024",
          CODER_PIDS_LIMIT: "1024",
          CODER_IDLE_STOP_SECONDS: "0",
          CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
          CODER_MODELS: "scripted",
          ...(databaseUrl ? { CODER_DATABASE_URL: databaseUrl } : {}),
        },
        // CODER_LOAD_PROFILE_DIR: each service process writes a CPU profile there when it stops.
        profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      );
      children.push(started.child);
      token ??= started.token;
      const cookie = await login(started.url, token ?? "");
      instances.push({
        child: started.child,
        url: started.url,
        cookie,
        api: trpcClient(started.url, cookie),
      });
    }
    return { instances, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Keystroke → other person: each keystroke is one Yjs item, known by its client id and clock; every
 * other person's client notes when its document got it.
 */
class KeystrokeClock {
  private readonly sent = new Map<number, number>();
  samples: number[] = [];
  measuring = false;

  private static key(client: number, clock: number): number {
    // Client ids are 32-bit, clocks stay far below 2^20 here: the key is an exact double.
    return client * 1_048_576 + clock;
  }

  typed(doc: Y.Doc, at: number, type: () => void): void {
    const clock = Y.getState(doc.store, doc.clientID);
    type();
    this.sent.set(KeystrokeClock.key(doc.clientID, clock), at);
  }

  follow(doc: Y.Doc): void {
    doc.on("afterTransaction", (tr: Y.Transaction) => {
      if (!this.measuring) return;
      const at = now();
      for (const [client, after] of tr.afterState) {
        if (client === doc.clientID) continue;
        for (let clock = tr.beforeState.get(client) ?? 0; clock < after; clock++) {
          const sentAt = this.sent.get(KeystrokeClock.key(client, clock));
          if (sentAt !== undefined) this.samples.push(at - sentAt);
        }
      }
    });
  }

  reset(): void {
    this.sent.clear();
    this.samples = [];
  }
}

/** A person's terminal: a WebSocket that acknowledges what it reads (the service's flow control) and counts it. */
async function streamingTerminal(instance: Instance, workspaceId: string, name: string) {
  const ws = new WebSocket(`${instance.url.replace("http", "ws")}/terminal/${workspaceId}/${name}`, {
    headers: { cookie: instance.cookie, origin: instance.url },
  });
  const state = { bytes: 0, prompt: false };
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    state.bytes += data.length;
    if (!state.prompt && data.toString("latin1").includes("$ ")) state.prompt = true;
    ws.send(JSON.stringify({ type: "ack", bytes: data.length }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "resize", cols: 120, rows: 30 }));
  await until(() => state.prompt, `terminal ${name} shows a prompt`, 60_000);
  ws.send(Buffer.from(PRINTER), { binary: true });
  return { state, close: () => ws.close() };
}

interface Person {
  document: OpenDocument;
  close(): void;
  terminal?: { state: { bytes: number } };
}

/** One person of a workspace: a live document they type into and a terminal streaming to them. */
async function join(
  instance: Instance,
  workspaceId: string,
  index: number,
  keystrokes: KeystrokeClock,
): Promise<Person> {
  const socket = collabSocket(instance.url, instance.cookie, workspaceId);
  const document = openDocument(socket, "shared.txt");
  keystrokes.follow(document.doc);
  await until(() => document.provider.isSynced, `person ${index} synced`, 60_000);
  const terminal = WITH_TERMINALS ? await streamingTerminal(instance, workspaceId, `p${index}`) : undefined;
  const text = document.doc.getText(COLLAB_TEXT);
  // Typing starts at a random moment of the first interval, so people do not type in step.
  let typing: NodeJS.Timeout | undefined;
  const phase = setTimeout(() => {
    typing = setInterval(() => {
      const at = now();
      keystrokes.typed(document.doc, at, () =>
        text.insert(Math.floor(Math.random() * (text.length + 1)), "x"),
      );
    }, TYPING_EVERY_MS);
  }, Math.random() * TYPING_EVERY_MS);
  return {
    document,
    terminal,
    close() {
      clearTimeout(phase);
      clearInterval(typing);
      document.provider.destroy();
      socket.destroy();
      terminal?.close();
    },
  };
}

interface Workspace {
  id: string;
  instance: Instance;
  people: Person[];
  stopAgent(): void;
}

/** A running workspace with the shared file, and an agent turn a minute (from a random moment). */
async function openWorkspace(instance: Instance, name: string): Promise<Workspace> {
  const { id } = await instance.api.workspace.create.mutate({ name });
  await waitForStatus(instance.api, id, "running", 180_000);
  await instance.api.files.write.mutate({ workspaceId: id, path: "shared.txt", content: "shared\n" });
  const session = await instance.api.session.create.mutate({ workspaceId: id });
  const turn = () =>
    instance.api.session.prompt.mutate({ sessionId: session.id, text: "read the shared file" }).catch(() => {
      // A turn still running when the next is due is refused: the next minute tries again.
    });
  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    void turn();
    every = setInterval(turn, AGENT_EVERY_MS);
  }, Math.random() * AGENT_EVERY_MS);
  return {
    id,
    instance,
    people: [],
    stopAgent() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}

interface StepResult {
  people: number;
  p50: number;
  p99: number;
  samples: number;
  serviceCpu: number;
  serviceRssMiB: number;
  generatorCpu: number;
  /** How late this process's event loop ran at the 99th percentile: a late generator adds to every sample. */
  generatorLagP99: number;
  /** The machine's 1-minute load average at the end of the step (2 cores). */
  load: number;
  terminalKBps: number;
}

/** The load curve against `count` instances: workspaces are spread over the instances in turn. */
async function curve(count: number, model: ModelServer, log: (line: string) => void): Promise<StepResult[]> {
  const { instances, close } = await startInstances(count, model);
  const workspaces: Workspace[] = [];
  const keystrokes = new KeystrokeClock();
  const results: StepResult[] = [];
  try {
    for (const target of STEPS) {
      const needed = Math.ceil(target / PEOPLE_PER_WORKSPACE);
      const opening: Promise<Workspace>[] = [];
      for (let w = workspaces.length; w < needed; w++) {
        const instance = instances[w % instances.length] as Instance;
        opening.push(openWorkspace(instance, `load-${w}`));
      }
      workspaces.push(...(await Promise.all(opening)));
      let people = workspaces.reduce((n, w) => n + w.people.length, 0);
      for (const workspace of workspaces) {
        const joining: Promise<Person>[] = [];
        while (workspace.people.length + joining.length < PEOPLE_PER_WORKSPACE && people < target) {
          joining.push(join(workspace.instance, workspace.id, people, keystrokes));
          people++;
        }
        workspace.people.push(...(await Promise.all(joining)));
      }
      await sleep(SETTLE_MS);
      keystrokes.reset();
      const everyone = workspaces.flatMap((w) => w.people);
      const bytesBefore = everyone.reduce((n, p) => n + (p.terminal?.state.bytes ?? 0), 0);
      const pids = instances.map((i) => i.child.pid as number);
      const before = pids.map(processUsage);
      const generatorBefore = process.cpuUsage();
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const start = now();
      keystrokes.measuring = true;
      await sleep(MEASURE_MS);
      keystrokes.measuring = false;
      const wall = now() - start;
      lag.disable();
      const after = pids.map(processUsage);
      const generator = process.cpuUsage(generatorBefore);
      const bytes = everyone.reduce((n, p) => n + (p.terminal?.state.bytes ?? 0), 0) - bytesBefore;
      const serviceCpuMs = after.reduce((n, u, i) => n + u.cpuMs - (before[i]?.cpuMs ?? 0), 0);
      const step: StepResult = {
        people: target,
        p50: percentile(keystrokes.samples, 50),
        p99: percentile(keystrokes.samples, 99),
        samples: keystrokes.samples.length,
        serviceCpu: serviceCpuMs / wall,
        serviceRssMiB: after.reduce((n, u) => n + u.rssMiB, 0),
        generatorCpu: (generator.user + generator.system) / 1000 / wall,
        generatorLagP99: lag.percentile(99) / 1e6,
        load: Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]),
        terminalKBps: bytes / (wall / 1000) / everyone.length / 1000,
      };
      results.push(step);
      log(
        `  ${count} instance(s), ${target} people: keystroke p50 ${round(step.p50, 1)} ms p99 ${round(step.p99, 1)} ms (${step.samples} deliveries), service CPU ${round(step.serviceCpu * 100, 1)}% RSS ${round(step.serviceRssMiB, 0)} MiB, generator CPU ${round(step.generatorCpu * 100, 1)}% (event loop lag p99 ${round(step.generatorLagP99, 1)} ms), terminal ${round(step.terminalKBps, 1)} KB/s a person, load ${step.load}`,
      );
      if (step.p99 > GIVE_UP_P99_MS) break;
    }
    return results;
  } finally {
    for (const workspace of workspaces) {
      workspace.stopAgent();
      for (const person of workspace.people) person.close();
    }
    await close();
  }
}

function rows(count: number, steps: StepResult[]): BenchResult[] {
  const label = count === 1 ? "one instance" : `${count} instances (one PostgreSQL)`;
  const out: BenchResult[] = [];
  for (const s of steps) {
    const atTarget = count === 1 && s.people === 200;
    out.push(
      {
        name: `${label}, ${s.people} people: keystroke → other person p50`,
        value: round(s.p50, 1),
        unit: "ms",
      },
      {
        name: `${label}, ${s.people} people: keystroke → other person p99 (${s.samples} deliveries)`,
        value: round(s.p99, 1),
        unit: "ms",
        ...(atTarget ? { target: "≤ 50 ms", pass: s.p99 <= 50 } : {}),
        notes: `machine load average ${s.load} on 2 cores; the generator's own event loop ran up to ${round(s.generatorLagP99, 1)} ms late (p99)`,
      },
      {
        name: `${label}, ${s.people} people: service CPU per active person (process CPU time / wall)`,
        value: round((s.serviceCpu * 100) / s.people, 3),
        unit: "% of a core",
        notes: `all ${s.people}: ${round(s.serviceCpu * 100, 1)}% of a core; the load generator itself ${round(s.generatorCpu * 100, 1)}% (2 cores shared)`,
      },
      {
        name: `${label}, ${s.people} people: service RSS per active person`,
        value: round(s.serviceRssMiB / s.people, 2),
        unit: "MiB",
        notes: `service RSS ${round(s.serviceRssMiB, 0)} MiB in all; terminals delivered ${round(s.terminalKBps, 1)} KB/s a person (${TERMINAL_BYTES_PER_SECOND / 1000} asked)`,
      },
    );
  }
  const last = steps.at(-1);
  if (last && last.p99 > GIVE_UP_P99_MS && last.people !== STEPS.at(-1)) {
    out.push({
      name: `${label}: curve stopped at ${last.people} people (p99 past ${GIVE_UP_P99_MS} ms)`,
      value: last.people,
      unit: "people",
    });
  }
  return out;
}

export async function run(): Promise<BenchResult[]> {
  const model = await agentModel();
  const log = (line: string) => console.log(line);
  try {
    const counts = (process.env.CODER_LOAD_INSTANCES ?? "1,2").split(",").map(Number);
    const out: BenchResult[] = [];
    for (const count of counts) out.push(...rows(count, await curve(count, model, log)));
    return out;
  } finally {
    await model.close();
  }
}
