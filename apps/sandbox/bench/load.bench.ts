import { type ChildProcess, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
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
import { busiest, cpuByCommand, cpuMsOfStat, cpuWaitMs } from "./load-machine-cpu";
import type { Convergence } from "./load-people";

/**
 * How many people one service instance serves (issue 23 item 5). N simulated people, 25 to a
 * workspace (a team on one project: the people of one workspace share its live document, as
 * they would), each a Yjs client typing 5 characters a second into the shared file, each with a
 * terminal streaming 10 KB/s to them, and one agent turn a minute per workspace through the scripted
 * model. The service runs as its own process (`npm start`'s entry point), pinned to CPU 0; the
 * people of each workspace run in a generator process of their own (load-people.ts), all pinned
 * with this process to CPU 1 (`taskset`), so the service has a core to itself and the generators
 * cannot take it (Docker, the workspaces' containers and PostgreSQL float over both). A generator
 * measures keystroke → other person on its own clock and reports how late its own event loop ran:
 * a row whose generator lag is past a fifth of its p99 is marked generator-bound (much of it is the
 * generator's own lag, so it is an upper bound of the service's part), and a row passes the target
 * only if people kept at least TYPING_KEPT_SHARE of the typing schedule (a generator that fell
 * behind offers the service less than the load asks for). The service's CPU (its process's CPU time / wall time) and RSS are
 * its own.
 *
 * A step that fails (a workspace that does not start, people who cannot join) becomes a row that
 * says why, and the curve goes on to the next step; waits are patient (they fail only when nothing
 * moves for STALL_MS, and say how far they got), never a fixed deadline that loses the curve.
 *
 * Each curve runs twice by default, with the service's outgoing-update batching off and on
 * (CODER_COLLAB_BATCHING, collab/outgoing-batch.ts), one after the other in this run, so the ratio
 * means something on a busy machine.
 */
const PEOPLE_PER_WORKSPACE = 25;
/** CODER_LOAD_PEOPLE, CODER_LOAD_INSTANCES and CODER_LOAD_BATCHING (comma-separated) pick other steps and curves. */
const STEPS = (process.env.CODER_LOAD_PEOPLE ?? "25,50,100,200,400").split(",").map(Number);
const INSTANCE_COUNTS = (process.env.CODER_LOAD_INSTANCES ?? "1").split(",").map(Number);
const BATCHING = (process.env.CODER_LOAD_BATCHING ?? "off,on").split(",").map((v) => v === "on");
const TYPING_EVERY_MS = 200;
const AGENT_EVERY_MS = 60_000;
/** A step is measured once everyone of it types and streams, for this long. */
const SETTLE_MS = 5_000;
const MEASURE_MS = 15_000;
/** A curve stops after the first step past this (the service no longer serves that many). */
const GIVE_UP_P99_MS = 10_000;
/** A step is measured when at least this share of its people joined (the row says why the others did not). */
const MEASURED_SHARE = 0.9;
/** A wait (a workspace starting, people joining, the real clients converging) fails after this long without progress. */
const STALL_MS = 120_000;
/** How often a step says how far its workspaces and people are, while they start. */
const PROGRESS_EVERY_MS = 15_000;
/**
 * CPU 0 serves, CPU 1 generates (this process and its forks). CODER_LOAD_PIN=generators keeps only
 * the generators on CPU 1 (on a machine busy with other work, a service held to one CPU cannot move
 * away from it); CODER_LOAD_PIN=off leaves both to the scheduler.
 */
const SERVICE_CPU = "0";
const GENERATOR_CPU = "1";
const PINNING = (process.env.CODER_LOAD_PIN ?? "service") as "service" | "generators" | "off";
/** A generator whose own event loop lags more than this share of the p99 it reports measures itself. */
const GENERATOR_BOUND_SHARE = 0.2;
/**
 * The share of the typing schedule people must have kept for a row to pass: generators that fell
 * behind type less, and a service offered less than the load asks for proves nothing.
 */
const TYPING_KEPT_SHARE = 0.9;
const TERMINAL_BYTES_PER_SECOND = 10_000;
/** CODER_LOAD_TERMINALS=0: people without terminals, to tell the terminals' share of the machine apart. */
const WITH_TERMINALS = process.env.CODER_LOAD_TERMINALS !== "0";

const now = () => performance.now();

/**
 * Pins every thread of `pid` (and what it starts later) to `cpus` with util-linux's taskset; says
 * why not when it cannot (the results then say the service was not pinned).
 */
function pin(pid: number, cpus: string): string | undefined {
  if (PINNING === "off") return "CODER_LOAD_PIN=off";
  try {
    execFileSync("taskset", ["-a", "-c", "-p", cpus, String(pid)], { stdio: "ignore" });
    return undefined;
  } catch (error) {
    return `taskset failed: ${(error as Error).message}`;
  }
}

/**
 * CPU time (user + system) of a process, in ms, how long its main thread waited for a CPU so far,
 * in ms, and its resident memory, in MiB.
 */
function processUsage(pid: number): { cpuMs: number; cpuWaitMs: number; rssMiB: number } {
  const rss = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return {
    cpuMs: cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, "utf8")),
    cpuWaitMs: cpuWaitMs(pid),
    rssMiB: Number(rss?.[1] ?? 0) / 1024,
  };
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

/**
 * Why the service closed collaboration sockets, from its log ("collab: closing a socket that sent
 * …"), counted: a real client that does not converge is often one whose sockets it keeps closing.
 */
class ClosedSockets {
  private readonly reasons = new Map<string, number>();

  follow(child: ChildProcess): void {
    const read = (chunk: Buffer) => {
      for (const [, why] of chunk.toString().matchAll(/collab: closing a socket that sent ([^\n]+)/g))
        if (why) this.reasons.set(why, (this.reasons.get(why) ?? 0) + 1);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
  }

  toString(): string {
    return [...this.reasons].map(([why, count]) => `${count} × ${why}`).join(", ");
  }
}

/** `count` service processes on one container label: on one PostgreSQL database when more than one. */
async function startInstances({ instances: count, batching }: Variant, model: ModelServer) {
  const instance = newInstance();
  const closedSockets = new ClosedSockets();
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
      closedSockets.follow(started.child);
      const unpinned =
        PINNING === "service" ? pin(started.child.pid as number, SERVICE_CPU) : `CODER_LOAD_PIN=${PINNING}`;
      if (unpinned) console.log(`  the service is not pinned: ${unpinned}`);
      token ??= started.token;
      const cookie = await login(started.url, token ?? "");
      instances.push({
        child: started.child,
        url: started.url,
        cookie,
        api: trpcClient(started.url, cookie),
      });
    }
    return { instances, close, closedSockets };
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

const peopleOptions = (instance: Instance, workspaceId: string) => ({
  url: instance.url,
  cookie: instance.cookie,
  workspaceId,
  withTerminals: WITH_TERMINALS,
  typingEveryMs: TYPING_EVERY_MS,
  stallMs: STALL_MS,
});

/** A running workspace with the shared file, its people's process, and an agent turn a minute (from a random moment). */
async function openWorkspace(instance: Instance, name: string, starting: number): Promise<Workspace> {
  const { id } = await instance.api.workspace.create.mutate({ name });
  // Workspaces that start together share the machine: each may take longer the more there are.
  await waitForStatus(instance.api, id, "running", STALL_MS + starting * 15_000);
  await instance.api.files.write.mutate({ workspaceId: id, path: "shared.txt", content: "shared\n" });
  const session = await instance.api.session.create.mutate({ workspaceId: id });
  const people = await startPeople(peopleOptions(instance, id));
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
  /** The step: how many people were asked for. */
  people: number;
  /** How many joined and were measured, and why the others did not. */
  present: number;
  shortfall?: string;
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
  /**
   * Some generator process lagged past a fifth of the p99 it measured: its own lag is much of the
   * row (an upper bound of the service's part: a row under the target passes all the same).
   */
  generatorBound: boolean;
  /** Keystrokes a second a person typed while measuring (the schedule: 1000 / TYPING_EVERY_MS). */
  typingRate: number;
  /** The machine's 1-minute load average at the start and end of the step (2 cores). */
  loadBefore: number;
  load: number;
  terminalKBps: number;
  /** Terminal WebSocket messages a person read a second: what the terminals' bytes cost in sends. */
  terminalFramesPerPersonSecond: number;
  /** Collaboration frames the service sent a person a second. */
  framesPerPersonSecond: number;
  /** The service's CPU time per 1000 keystroke deliveries: what a delivery costs it, however busy the machine. */
  serviceCpuMsPerThousand: number;
  /** The whole machine's CPU while measuring, by command, in cores, the busiest first: what else loads it. */
  machineCpu: [string, number][];
  /**
   * The share of the time the services' event-loop threads were ready to run but waited for a CPU
   * (summed over instances): near 0, a late keystroke is the service's own doing; large, the
   * machine is the bottleneck.
   */
  serviceCpuWait: number;
}

/** A step that could not be measured, and why. */
interface FailedStep {
  people: number;
  failed: string;
}

interface Curve {
  steps: (StepResult | FailedStep)[];
  /** Workspaces whose real clients ended holding every keystroke, of those that ran. */
  converged: number;
  workspaces: number;
  /** Why the first workspace that did not converge did not. */
  divergence?: string;
  /** Keystrokes that never left people whose collaboration socket closed (not counted), if any. */
  neverLeft?: string;
}

const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

/** A curve begins once the machine's load average is this low again (2 cores)… */
const QUIET_LOAD = 2.5;
/** …or after this long, saying so. */
const QUIET_MAX_MS = 180_000;

/**
 * Waits for the machine to calm down after the curve before (its 200 people, then the teardown of
 * its workspaces), so every curve starts as the first did: one run's curves began at load average 5
 * and 9, and the second's p99 was the machine's, not the variant's.
 */
async function quiet(log: (line: string) => void): Promise<void> {
  const began = now();
  while (loadAverage() > QUIET_LOAD && now() - began < QUIET_MAX_MS) await sleep(2000);
  const waited = Math.round((now() - began) / 1000);
  if (waited > 0) log(`  waited ${waited} s for the machine to calm down: load average ${loadAverage()}`);
}

/** How long a probe of /healthz may wait for its answer. */
const HEALTH_PATIENCE_MS = 60_000;

/**
 * How long the service takes to answer /healthz, probed one at a time: on a saturated machine it
 * is the backlog of the service's event loop, so a join that stalls reads as a service too busy to
 * open sockets, not as a refusal (every person is the same login: the service bounds what one
 * person holds per workspace, 32 collaboration sockets, well above the 25 people of a workspace).
 */
function healthProbe(instances: Instance[]) {
  let last = "/healthz not probed yet";
  let probing = false;
  const probe = async () => {
    if (probing) return;
    probing = true;
    const start = now();
    const answers = instances.map((i) =>
      fetch(`${i.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_PATIENCE_MS) }).then((r) => r.ok),
    );
    const ok = await Promise.all(answers).then(
      (all) => all.every(Boolean),
      () => false,
    );
    last = ok
      ? `/healthz answered in ${round((now() - start) / 1000, 1)} s`
      : `/healthz gave no answer in ${HEALTH_PATIENCE_MS / 1000} s`;
    probing = false;
  };
  return { probe, last: () => last };
}

/** Workspaces and people for `target` people: what is missing is started, dead generator processes are replaced. */
async function grow(
  instances: Instance[],
  workspaces: Workspace[],
  target: number,
  log: (line: string) => void,
) {
  const needed = Math.ceil(target / PEOPLE_PER_WORKSPACE);
  const missing = Math.max(0, needed - workspaces.length);
  let running = 0;
  let opening = missing > 0;
  const startedAt = now();
  const health = healthProbe(instances);
  const progress = setInterval(() => {
    const joined = workspaces.reduce((n, w) => n + w.people.joining, 0);
    log(
      `    ${target} people: ${opening ? `${running} of ${missing} new workspaces running` : `${workspaces.length} workspaces`}, ${joined} people joined (${Math.round((now() - startedAt) / 1000)} s; ${health.last()})`,
    );
    void health.probe();
  }, PROGRESS_EVERY_MS);
  try {
    const failures: string[] = [];
    for (const workspace of workspaces)
      if (!workspace.people.alive)
        workspace.people = await startPeople(peopleOptions(workspace.instance, workspace.id));
    const starts = Array.from({ length: missing }, (_, i) => {
      const w = workspaces.length + i;
      return openWorkspace(instances[w % instances.length] as Instance, `load-${w}`, missing).then(
        (opened) => {
          running++;
          return opened;
        },
      );
    });
    const started = await Promise.allSettled(starts);
    opening = false;
    for (const opened of started) {
      if (opened.status === "fulfilled") workspaces.push(opened.value);
      else failures.push(`a workspace did not start: ${(opened.reason as Error).message}`);
    }
    let people = workspaces.reduce((n, w) => n + w.people.count, 0);
    const joining: Promise<void>[] = [];
    for (const workspace of workspaces) {
      const more = Math.min(PEOPLE_PER_WORKSPACE - workspace.people.count, target - people);
      if (more <= 0) continue;
      joining.push(workspace.people.join(more));
      people += more;
    }
    for (const joined of await Promise.allSettled(joining))
      if (joined.status === "rejected") failures.push((joined.reason as Error).message);
    const present = workspaces.reduce((n, w) => n + w.people.count, 0);
    if (failures.length > 0 || present < target)
      throw new Error(
        `${present} of ${target} people are in (${health.last()}): ${failures.join("; ") || "too few workspaces"}`,
      );
  } finally {
    clearInterval(progress);
  }
}

/** Everyone present types and streams for MEASURE_MS; the service's and the generators' costs over that time. */
async function measure(
  instances: Instance[],
  workspaces: Workspace[],
  target: number,
  shortfall: string | undefined,
): Promise<StepResult> {
  // A dead generator process (its people gone) has nothing to report.
  const active = workspaces.filter((w) => w.people.alive && w.people.count > 0);
  const present = active.reduce((n, w) => n + w.people.count, 0);
  const loadBefore = loadAverage();
  await sleep(SETTLE_MS);
  const pids = instances.map((i) => i.child.pid as number);
  const before = pids.map(processUsage);
  const generatorBefore = process.cpuUsage();
  const machineBefore = cpuByCommand();
  for (const workspace of active) workspace.people.measure();
  const start = now();
  await sleep(MEASURE_MS);
  const reports = await Promise.all(active.map((w) => w.people.report()));
  const wall = now() - start;
  const after = pids.map(processUsage);
  const machineAfter = cpuByCommand();
  const own = process.cpuUsage(generatorBefore);
  const samples = reports.flatMap((r) => r.samples);
  const bytes = reports.reduce((n, r) => n + r.terminalBytes, 0);
  const serviceCpuMs = after.reduce((n, u, i) => n + u.cpuMs - (before[i]?.cpuMs ?? 0), 0);
  return {
    people: target,
    present,
    ...(shortfall ? { shortfall } : {}),
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    samples: samples.length,
    serviceCpu: serviceCpuMs / wall,
    serviceRssMiB: after.reduce((n, u) => n + u.rssMiB, 0),
    generatorCpu: reports.reduce((n, r) => n + r.cpu, (own.user + own.system) / 1000 / wall),
    generatorProcesses: reports.length,
    generatorLagP99: Math.max(...reports.map((r) => r.lagP99)),
    generatorBound: reports.some((r) => r.lagP99 > GENERATOR_BOUND_SHARE * percentile(r.samples, 99)),
    typingRate:
      reports.reduce((n, r) => n + r.typed, 0) /
      Math.max(
        1,
        reports.reduce((n, r) => n + r.personSeconds, 0),
      ),
    loadBefore,
    load: loadAverage(),
    terminalKBps: bytes / (wall / 1000) / present / 1000,
    terminalFramesPerPersonSecond:
      reports.reduce((n, r) => n + r.terminalFrames, 0) / (wall / 1000) / present,
    framesPerPersonSecond: reports.reduce((n, r) => n + r.collabFrames, 0) / (wall / 1000) / present,
    serviceCpuMsPerThousand: (serviceCpuMs / samples.length) * 1000,
    machineCpu: busiest(machineBefore, machineAfter, wall),
    serviceCpuWait: after.reduce((n, u, i) => n + u.cpuWaitMs - (before[i]?.cpuWaitMs ?? 0), 0) / wall,
  };
}

/** The load curve of one variant: workspaces are spread over the instances in turn. */
async function curve(variant: Variant, model: ModelServer, log: (line: string) => void): Promise<Curve> {
  const { instances, close, closedSockets } = await startInstances(variant, model);
  const workspaces: Workspace[] = [];
  const steps: Curve["steps"] = [];
  let convergence: Convergence[] = [];
  try {
    for (const target of STEPS) {
      try {
        // A step most of whose people joined is measured with those, saying why the others did not.
        const shortfall = await grow(instances, workspaces, target, log).then(
          () => undefined,
          (error: Error) => error.message,
        );
        const present = workspaces.reduce((n, w) => n + (w.people.alive ? w.people.count : 0), 0);
        if (shortfall && present < MEASURED_SHARE * target) throw new Error(shortfall);
        const step = await measure(instances, workspaces, target, shortfall);
        steps.push(step);
        log(
          `  ${label(variant)}, ${target} people${shortfall ? ` (${present} joined: ${shortfall})` : ""}: keystroke p50 ${round(step.p50, 1)} ms p99 ${round(step.p99, 1)} ms (${step.samples} deliveries)${step.generatorBound ? " GENERATOR-BOUND" : ""}, typing ${round(step.typingRate, 2)} of ${1000 / TYPING_EVERY_MS} keystrokes a second a person, service CPU ${round(step.serviceCpu * 100, 1)}% (${round(step.serviceCpuMsPerThousand, 1)} ms per 1000 deliveries; its event loop waited for a CPU ${round(step.serviceCpuWait * 100, 1)}% of the time), ${round(step.framesPerPersonSecond, 1)} frames a person a second, RSS ${round(step.serviceRssMiB, 0)} MiB, ${step.generatorProcesses} generator processes CPU ${round(step.generatorCpu * 100, 1)}% (${round((step.generatorCpu * 100) / step.present, 3)}% a person; event loop lag p99 up to ${round(step.generatorLagP99, 1)} ms), terminal ${round(step.terminalKBps, 1)} KB/s a person in ${round(step.terminalFramesPerPersonSecond, 1)} frames a second, load ${step.loadBefore} → ${step.load}; machine CPU by command: ${step.machineCpu.map(([command, cores]) => `${command} ${round(cores, 2)}`).join(", ")}`,
        );
        if (step.p99 > GIVE_UP_P99_MS) break;
      } catch (error) {
        const failed = (error as Error).message;
        steps.push({ people: target, failed });
        log(`  ${label(variant)}, ${target} people: FAILED, ${failed}; on to the next step`);
      }
    }
  } finally {
    convergence = await Promise.all(
      workspaces.map((workspace) => {
        workspace.stopAgent();
        return workspace.people.stop();
      }),
    );
    await close();
  }
  const diverged = convergence.find((c) => !c.converged);
  const dropped = convergence.flatMap((c) => (c.neverLeft ? [c.neverLeft] : []));
  const neverLeft =
    dropped.length > 0
      ? `${dropped.reduce((n, d) => n + d.keystrokes, 0)} keystrokes of ${dropped.reduce((n, d) => n + d.people, 0)} simulated people whose collaboration socket closed never left them and are not counted (they do not reconnect; the first: ${dropped[0]?.why})`
      : undefined;
  const closed = closedSockets.toString();
  log(
    `  ${label(variant)}: the real clients of ${convergence.filter((c) => c.converged).length} of ${convergence.length} workspaces hold every keystroke the service took and agree${diverged ? ` (not: ${diverged.detail})` : ""}${neverLeft ? `; ${neverLeft}` : ""}${closed ? `; the service closed collaboration sockets that sent ${closed}` : ""}`,
  );
  return {
    steps,
    converged: convergence.filter((c) => c.converged).length,
    workspaces: convergence.length,
    ...(diverged ? { divergence: diverged.detail } : {}),
    ...(neverLeft ? { neverLeft } : {}),
  };
}

function label({ instances, batching }: Variant): string {
  const where = instances === 1 ? "one instance" : `${instances} instances (one PostgreSQL)`;
  return `${where}, batching ${batching ? "on" : "off"}`;
}

const measured = (step: StepResult | FailedStep | undefined): step is StepResult =>
  step !== undefined && !("failed" in step);

/** `baseline`: the same instances without batching in this run, for the ratio of the p99s. */
function rows(variant: Variant, curve: Curve, pinned: string | undefined, baseline?: Curve): BenchResult[] {
  const name = label(variant);
  const out: BenchResult[] = [];
  const where = pinned
    ? `not pinned (${pinned})`
    : PINNING === "service"
      ? `service pinned to CPU ${SERVICE_CPU}, generators to CPU ${GENERATOR_CPU} (taskset)`
      : `generators pinned to CPU ${GENERATOR_CPU} (taskset), the service free`;
  for (const s of curve.steps) {
    if (!measured(s)) {
      out.push({
        name: `${name}, ${s.people} people: not measured — ${s.failed}`,
        value: 0,
        unit: "people",
        pass: false,
      });
      continue;
    }
    const atTarget = variant.instances === 1 && variant.batching && s.people === 200;
    const keptRate = TYPING_KEPT_SHARE * (1000 / TYPING_EVERY_MS);
    const found = baseline?.steps.find((b) => b.people === s.people);
    const unbatched = measured(found) ? found : undefined;
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
        ...(atTarget ? { target: "≤ 50 ms", pass: s.p99 <= 50 && s.typingRate >= keptRate } : {}),
        notes: `${s.shortfall ? `${s.present} of ${s.people} people joined and were measured (${s.shortfall}); ` : ""}people typed ${round(s.typingRate, 2)} keystrokes a second each (the schedule ${1000 / TYPING_EVERY_MS}; a row passes only at ${TYPING_KEPT_SHARE * 100} % of it or more, and its p99, the generators' own lag included, is an upper bound of the service's); machine load average ${s.loadBefore} at the start, ${s.load} at the end, on 2 cores; ${where}; ${s.generatorProcesses} generator processes, the latest one's event loop ran up to ${round(s.generatorLagP99, 1)} ms late (p99)${unbatched ? `; ratio: p99 without batching (${round(unbatched.p99, 1)} ms) / with` : ""}`,
      },
      {
        name: `${name}, ${s.people} people: service CPU per active person (process CPU time / wall)`,
        value: round((s.serviceCpu * 100) / s.present, 3),
        unit: "% of a core",
        ...(unbatched ? { ratio: round(unbatched.serviceCpu / s.serviceCpu, 2) } : {}),
        notes: `all ${s.present}: ${round(s.serviceCpu * 100, 1)}% of a core; ${where}${unbatched ? `; ratio: without batching (${round(unbatched.serviceCpu * 100, 1)}%) / with` : ""}`,
      },
      {
        name: `${name}, ${s.people} people: load generator CPU per person`,
        value: round((s.generatorCpu * 100) / s.present, 3),
        unit: "% of a core",
        notes: `all generator processes and this one: ${round(s.generatorCpu * 100, 1)}% (${where}); their event loops ran up to ${round(s.generatorLagP99, 1)} ms late (p99)${s.generatorBound ? ": generator-bound" : ""}`,
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
        value: round(s.serviceRssMiB / s.present, 2),
        unit: "MiB",
        notes: `service RSS ${round(s.serviceRssMiB, 0)} MiB in all; terminals delivered ${round(s.terminalKBps, 1)} KB/s a person in ${round(s.terminalFramesPerPersonSecond, 1)} frames a second (${TERMINAL_BYTES_PER_SECOND / 1000} asked)`,
      },
      {
        name: `${name}, ${s.people} people: the whole machine's CPU while measuring`,
        value: round(
          s.machineCpu.reduce((n, [, cores]) => n + cores, 0),
          2,
        ),
        unit: "cores of 2",
        notes: `by command: ${s.machineCpu.map(([command, cores]) => `${command} ${round(cores, 2)}`).join(", ")} (the service and the generators are node)`,
      },
      {
        name: `${name}, ${s.people} people: the service's event loop ready to run but waiting for a CPU`,
        value: round(s.serviceCpuWait * 100, 1),
        unit: "% of the time",
        notes:
          "the kernel's run-queue wait of the service's main thread (schedstat): large when the machine, not the service, is the bottleneck",
      },
    );
  }
  const last = curve.steps.at(-1);
  if (measured(last) && last.p99 > GIVE_UP_P99_MS && last.people !== STEPS.at(-1)) {
    out.push({
      name: `${name}: curve stopped at ${last.people} people (p99 past ${GIVE_UP_P99_MS} ms)`,
      value: last.people,
      unit: "people",
    });
  }
  out.push({
    name: `${name}: workspaces whose real Yjs clients ended holding every keystroke the service took, the same text`,
    value: curve.converged,
    unit: `of ${curve.workspaces}`,
    pass: curve.converged === curve.workspaces,
    ...(curve.divergence || curve.neverLeft
      ? { notes: [curve.divergence, curve.neverLeft].filter(Boolean).join("; ") }
      : {}),
  });
  return out;
}

export async function run(): Promise<BenchResult[]> {
  // This process and the generator processes it forks from now on use CPU 1; each service is moved to CPU 0.
  const pinned = pin(process.pid, GENERATOR_CPU);
  const model = await agentModel();
  const log = (line: string) => console.log(line);
  try {
    const out: BenchResult[] = [];
    for (const instances of INSTANCE_COUNTS) {
      let unbatched: Curve | undefined;
      for (const batching of BATCHING) {
        const variant = { instances, batching };
        await quiet(log);
        const result = await curve(variant, model, log);
        out.push(...rows(variant, result, pinned, batching ? unbatched : undefined));
        if (!batching) unbatched = result;
      }
    }
    return out;
  } finally {
    await model.close();
    if (!pinned) pin(process.pid, `0-${cpus().length - 1}`);
  }
}
