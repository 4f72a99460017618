import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { TRPCClient } from "@trpc/client";
import pg from "pg";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { type ModelServer, startModelServer } from "../../../e2e/support/model-server";
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
import type { AppRouter } from "../src/trpc/router";
import { type PeopleProcess, startPeople } from "./load-generator";

/**
 * How many people one service instance serves (issue 23 item 5). N simulated people, 25 to a
 * workspace (a team on one project: the people of one workspace share its live document, as
 * they would), each a Yjs client typing 5 characters a second into the shared file, each with a
 * terminal streaming 10 KB/s to them, and one agent turn a minute per workspace through the scripted
 * model. The service runs as its own process (`npm start`'s entry point); the people of each
 * workspace run in a generator process of their own (load-people.ts), which measures keystroke →
 * other person on its own clock and reports how late its own event loop ran: a row whose generator
 * lag is past a fifth of its p99 is marked generator-bound (it measures the generator, not the
 * service). The service's CPU (its process's CPU time / wall time) and RSS are its own.
 *
 * Each curve runs twice by default, with the service's outgoing-update batching off and on
 * (CODER_COLLAB_BATCHING, collab/outgoing-batch.ts), one after the other in this run, so the ratio
 * means something on a busy machine.
 */
const PEOPLE_PER_WORKSPACE = 25;
/** CODER_LOAD_PEOPLE, CODER_LOAD_INSTANCES and CODER_LOAD_BATCHING (comma-separated) pick other steps and curves. */
const STEPS = (process.env.CODER_LOAD_PEOPLE ?? "25,50,100,200").split(",").map(Number);
const INSTANCE_COUNTS = (process.env.CODER_LOAD_INSTANCES ?? "1").split(",").map(Number);
const BATCHING = (process.env.CODER_LOAD_BATCHING ?? "off,on").split(",").map((v) => v === "on");
const TYPING_EVERY_MS = 200;
const AGENT_EVERY_MS = 60_000;
/** A step is measured once everyone of it types and streams, for this long. */
const SETTLE_MS = 5_000;
const MEASURE_MS = 20_000;
/** A curve stops after the first step past this (the service no longer serves that many). */
const GIVE_UP_P99_MS = 1_000;
/** A generator whose own event loop lags more than this share of the p99 it reports measures itself. */
const GENERATOR_BOUND_SHARE = 0.2;
const TERMINAL_BYTES_PER_SECOND = 10_000;
/** CODER_LOAD_TERMINALS=0: people without terminals, to tell the terminals' share of the machine apart. */
const WITH_TERMINALS = process.env.CODER_LOAD_TERMINALS !== "0";

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

/** A curve's service: how many instances, and whether they batch outgoing updates. */
interface Variant {
  instances: number;
  batching: boolean;
}

/** `count` service processes on one container label: on one PostgreSQL database when more than one. */
async function startInstances({ instances: count, batching }: Variant, model: ModelServer) {
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
          CODER_COLLAB_BATCHING: batching ? "on" : "off",
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

interface Workspace {
  id: string;
  instance: Instance;
  people: PeopleProcess;
  stopAgent(): void;
}

/** A running workspace with the shared file, its people's process, and an agent turn a minute (from a random moment). */
async function openWorkspace(instance: Instance, name: string): Promise<Workspace> {
  const { id } = await instance.api.workspace.create.mutate({ name });
  await waitForStatus(instance.api, id, "running", 180_000);
  await instance.api.files.write.mutate({ workspaceId: id, path: "shared.txt", content: "shared\n" });
  const session = await instance.api.session.create.mutate({ workspaceId: id });
  const people = await startPeople({
    url: instance.url,
    cookie: instance.cookie,
    workspaceId: id,
    withTerminals: WITH_TERMINALS,
    typingEveryMs: TYPING_EVERY_MS,
  });
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
    people,
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
  /** All generator processes together (this one included), in cores. */
  generatorCpu: number;
  generatorProcesses: number;
  /** The latest-running generator process's event loop, 99th percentile. */
  generatorLagP99: number;
  /** Some generator process lagged past a fifth of the p99 it measured: the row measures the generator. */
  generatorBound: boolean;
  /** The machine's 1-minute load average at the start and end of the step (2 cores). */
  loadBefore: number;
  load: number;
  terminalKBps: number;
  /** Collaboration frames the service sent a person a second. */
  framesPerPersonSecond: number;
  /** The service's CPU time per 1000 keystroke deliveries: what a delivery costs it, however busy the machine. */
  serviceCpuMsPerThousand: number;
}

const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

/** The load curve of one variant: workspaces are spread over the instances in turn. */
async function curve(
  variant: Variant,
  model: ModelServer,
  log: (line: string) => void,
): Promise<StepResult[]> {
  const { instances, close } = await startInstances(variant, model);
  const workspaces: Workspace[] = [];
  const results: StepResult[] = [];
  try {
    for (const target of STEPS) {
      const loadBefore = loadAverage();
      const needed = Math.ceil(target / PEOPLE_PER_WORKSPACE);
      const opening: Promise<Workspace>[] = [];
      for (let w = workspaces.length; w < needed; w++) {
        const instance = instances[w % instances.length] as Instance;
        opening.push(openWorkspace(instance, `load-${w}`));
      }
      workspaces.push(...(await Promise.all(opening)));
      let people = workspaces.reduce((n, w) => n + w.people.count, 0);
      const joining: Promise<void>[] = [];
      for (const workspace of workspaces) {
        const more = Math.min(PEOPLE_PER_WORKSPACE - workspace.people.count, target - people);
        if (more <= 0) continue;
        joining.push(workspace.people.join(more));
        people += more;
      }
      await Promise.all(joining);
      await sleep(SETTLE_MS);
      const pids = instances.map((i) => i.child.pid as number);
      const before = pids.map(processUsage);
      const generatorBefore = process.cpuUsage();
      for (const workspace of workspaces) workspace.people.measure();
      const start = now();
      await sleep(MEASURE_MS);
      const reports = await Promise.all(workspaces.map((w) => w.people.report()));
      const wall = now() - start;
      const after = pids.map(processUsage);
      const own = process.cpuUsage(generatorBefore);
      const samples = reports.flatMap((r) => r.samples);
      const bytes = reports.reduce((n, r) => n + r.terminalBytes, 0);
      const serviceCpuMs = after.reduce((n, u, i) => n + u.cpuMs - (before[i]?.cpuMs ?? 0), 0);
      const step: StepResult = {
        people: target,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        samples: samples.length,
        serviceCpu: serviceCpuMs / wall,
        serviceRssMiB: after.reduce((n, u) => n + u.rssMiB, 0),
        generatorCpu: reports.reduce((n, r) => n + r.cpu, (own.user + own.system) / 1000 / wall),
        generatorProcesses: reports.length,
        generatorLagP99: Math.max(...reports.map((r) => r.lagP99)),
        generatorBound: reports.some((r) => r.lagP99 > GENERATOR_BOUND_SHARE * percentile(r.samples, 99)),
        loadBefore,
        load: loadAverage(),
        terminalKBps: bytes / (wall / 1000) / target / 1000,
        framesPerPersonSecond: reports.reduce((n, r) => n + r.collabFrames, 0) / (wall / 1000) / target,
        serviceCpuMsPerThousand: (serviceCpuMs / samples.length) * 1000,
      };
      results.push(step);
      log(
        `  ${label(variant)}, ${target} people: keystroke p50 ${round(step.p50, 1)} ms p99 ${round(step.p99, 1)} ms (${step.samples} deliveries)${step.generatorBound ? " GENERATOR-BOUND" : ""}, service CPU ${round(step.serviceCpu * 100, 1)}% (${round(step.serviceCpuMsPerThousand, 1)} ms per 1000 deliveries), ${round(step.framesPerPersonSecond, 1)} frames a person a second, RSS ${round(step.serviceRssMiB, 0)} MiB, ${step.generatorProcesses} generator processes CPU ${round(step.generatorCpu * 100, 1)}% (event loop lag p99 up to ${round(step.generatorLagP99, 1)} ms), terminal ${round(step.terminalKBps, 1)} KB/s a person, load ${step.loadBefore} → ${step.load}`,
      );
      if (step.p99 > GIVE_UP_P99_MS) break;
    }
    return results;
  } finally {
    await Promise.all(
      workspaces.map((workspace) => {
        workspace.stopAgent();
        return workspace.people.stop();
      }),
    );
    await close();
  }
}

function label({ instances, batching }: Variant): string {
  const where = instances === 1 ? "one instance" : `${instances} instances (one PostgreSQL)`;
  return `${where}, batching ${batching ? "on" : "off"}`;
}

/** `baseline`: the same instances without batching in this run, for the ratio of the p99s. */
function rows(variant: Variant, steps: StepResult[], baseline?: StepResult[]): BenchResult[] {
  const name = label(variant);
  const out: BenchResult[] = [];
  for (const s of steps) {
    const atTarget = variant.instances === 1 && variant.batching && s.people === 200;
    const unbatched = baseline?.find((b) => b.people === s.people);
    out.push(
      {
        name: `${name}, ${s.people} people: keystroke → other person p50`,
        value: round(s.p50, 1),
        unit: "ms",
      },
      {
        name: `${name}, ${s.people} people: keystroke → other person p99 (${s.samples} deliveries)${s.generatorBound ? " — generator-bound" : ""}`,
        value: round(s.p99, 1),
        unit: "ms",
        ...(unbatched ? { ratio: round(unbatched.p99 / s.p99, 2) } : {}),
        ...(atTarget ? { target: "≤ 50 ms", pass: s.p99 <= 50 && !s.generatorBound } : {}),
        notes: `machine load average ${s.loadBefore} at the start, ${s.load} at the end, on 2 cores; ${s.generatorProcesses} generator processes, the latest one's event loop ran up to ${round(s.generatorLagP99, 1)} ms late (p99)${unbatched ? `; ratio: p99 without batching (${round(unbatched.p99, 1)} ms) / with` : ""}`,
      },
      {
        name: `${name}, ${s.people} people: service CPU per active person (process CPU time / wall)`,
        value: round((s.serviceCpu * 100) / s.people, 3),
        unit: "% of a core",
        ...(unbatched ? { ratio: round(unbatched.serviceCpu / s.serviceCpu, 2) } : {}),
        notes: `all ${s.people}: ${round(s.serviceCpu * 100, 1)}% of a core; the load generators together ${round(s.generatorCpu * 100, 1)}% (2 cores shared)${unbatched ? `; ratio: without batching (${round(unbatched.serviceCpu * 100, 1)}%) / with` : ""}`,
      },
      {
        name: `${name}, ${s.people} people: service CPU time per 1000 keystroke deliveries`,
        value: round(s.serviceCpuMsPerThousand, 1),
        unit: "ms",
        ...(unbatched
          ? { ratio: round(unbatched.serviceCpuMsPerThousand / s.serviceCpuMsPerThousand, 2) }
          : {}),
        notes: `CPU time is less disturbed by a busy machine than latency${unbatched ? `; ratio: without batching (${round(unbatched.serviceCpuMsPerThousand, 1)} ms) / with` : ""}`,
      },
      {
        name: `${name}, ${s.people} people: collaboration frames the service sends a person a second`,
        value: round(s.framesPerPersonSecond, 1),
        unit: "frames/s",
        ...(unbatched ? { ratio: round(unbatched.framesPerPersonSecond / s.framesPerPersonSecond, 2) } : {}),
        notes: `each person receives ${(PEOPLE_PER_WORKSPACE * 1000) / TYPING_EVERY_MS} keystrokes a second from their workspace (their own come back too)${unbatched ? `; ratio: without batching (${round(unbatched.framesPerPersonSecond, 1)}) / with` : ""}`,
      },
      {
        name: `${name}, ${s.people} people: service RSS per active person`,
        value: round(s.serviceRssMiB / s.people, 2),
        unit: "MiB",
        notes: `service RSS ${round(s.serviceRssMiB, 0)} MiB in all; terminals delivered ${round(s.terminalKBps, 1)} KB/s a person (${TERMINAL_BYTES_PER_SECOND / 1000} asked)`,
      },
    );
  }
  const last = steps.at(-1);
  if (last && last.p99 > GIVE_UP_P99_MS && last.people !== STEPS.at(-1)) {
    out.push({
      name: `${name}: curve stopped at ${last.people} people (p99 past ${GIVE_UP_P99_MS} ms)`,
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
    const out: BenchResult[] = [];
    for (const instances of INSTANCE_COUNTS) {
      let unbatched: StepResult[] | undefined;
      for (const batching of BATCHING) {
        const variant = { instances, batching };
        const steps = await curve(variant, model, log);
        out.push(...rows(variant, steps, batching ? unbatched : undefined));
        if (!batching) unbatched = steps;
      }
    }
    return out;
  } finally {
    await model.close();
  }
}
