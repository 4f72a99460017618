import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { TRPCClient } from "@trpc/client";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { accountedMemoryMiB } from "../src/docker/testing/engine-probes";
import {
  instanceDriver,
  openTerminal,
  startTestService,
  type TestService,
  waitForStatus,
} from "../src/testing/harness";
import type { AppRouter } from "../src/trpc/router";

const now = () => performance.now();
const SAMPLES = 7;

/** A tool call on the workspace, retried every 5 ms while the workspace is not ready yet. */
async function firstToolAnswer(api: TRPCClient<AppRouter>, workspaceId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const { result } = await api.tools.execute.mutate({ workspaceId, tool: "list", args: { path: "." } });
      if (result.ok) return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await sleep(5);
  }
}

/** Resolves once the service's warm pool is full and has had a moment with nothing to do. */
async function poolFull(t: TestService, size: number): Promise<void> {
  while ((await t.service.workspaces.pool.count()) < size) await sleep(50);
  await sleep(1500);
}

/** The kernel's estimate of memory available for new work, in MiB. */
function memAvailableMiB(): number {
  const line = readFileSync("/proc/meminfo", "utf8").match(/^MemAvailable:\s+(\d+) kB/m);
  if (!line?.[1]) throw new Error("no MemAvailable in /proc/meminfo");
  return Number(line[1]) / 1024;
}

/** MemAvailable once it has settled: the median of three readings a second apart. */
async function settledMemAvailable(): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 3; i++) {
    await sleep(1000);
    readings.push(memAvailableMiB());
  }
  return percentile(readings, 50);
}

/** Create → first tool answer, on a service without a pool and one with, sample by sample in turn. */
async function createToFirstAnswer(): Promise<BenchResult[]> {
  const cold = await startTestService({}, { CODER_WARM_POOL: "0", CODER_IDLE_STOP_SECONDS: "0" });
  const warm = await startTestService({}, { CODER_WARM_POOL: "1", CODER_IDLE_STOP_SECONDS: "0" });
  try {
    const times = { cold: [] as number[], warm: [] as number[] };
    for (let i = 0; i < SAMPLES; i++) {
      for (const [kind, t] of [
        ["warm", warm],
        ["cold", cold],
      ] as const) {
        await poolFull(warm, 1);
        const start = now();
        const { id } = await t.api.workspace.create.mutate({ name: `${kind}-${i}` });
        await firstToolAnswer(t.api, id);
        times[kind].push(now() - start);
        await t.api.workspace.delete.mutate({ workspaceId: id });
      }
    }
    const coldP50 = percentile(times.cold, 50);
    const warmP50 = percentile(times.warm, 50);
    return [
      {
        name: `create → first tool answer, cold p50 (${SAMPLES} samples)`,
        value: round(coldP50, 0),
        unit: "ms",
      },
      {
        name: `create → first tool answer, warm pool p50 (${SAMPLES} samples)`,
        value: round(warmP50, 1),
        unit: "ms",
        target: "< 100 ms",
        pass: warmP50 < 100,
      },
      {
        name: "create → first tool answer, warm pool / cold (p50s)",
        value: round(warmP50 / coldP50, 3),
        unit: "×",
        ratio: round(warmP50 / coldP50, 3),
        target: "≤ 0.25",
        pass: warmP50 / coldP50 <= 0.25,
      },
    ];
  } finally {
    await warm.close();
    await cold.close();
  }
}

/**
 * When each workspace's container was last started, as the engine reports it (its start event), and
 * when the service last said the workspace runs (its daemon answered): the stages of a create or a
 * resume, seen from outside the service.
 */
function stageClock(t: TestService, signal: AbortSignal) {
  const containerStarted = new Map<string, number>();
  const running = new Map<string, number>();
  void (async () => {
    for await (const e of instanceDriver(t.instance).events(signal))
      if (e.state === "running") containerStarted.set(e.workspaceId, now());
  })().catch(() => undefined);
  void (async () => {
    for await (const e of t.service.workspaces.events.subscribe(null, signal)) {
      const data = e.kind === "event" ? e.item.data : undefined;
      if (data?.type === "upsert" && data.workspace.status === "running")
        running.set(data.workspace.id, now());
    }
  })().catch(() => undefined);
  return {
    /** request → container started, → daemon answered (running), → first tool answer. */
    stages(id: string, start: number, answered: number) {
      const started = containerStarted.get(id) ?? Number.NaN;
      const up = running.get(id) ?? Number.NaN;
      return {
        container: started - start,
        daemon: up - started,
        tool: answered - up,
        total: answered - start,
      };
    },
  };
}

type Stages = ReturnType<ReturnType<typeof stageClock>["stages"]>;

/**
 * A cold create and a resume after idle stop, sample by sample in turn on one service (no warm
 * pool), each split into its stages; then `workspace.start` → a terminal prompt after idle stop.
 */
export async function createVersusResume(): Promise<BenchResult[]> {
  const t = await startTestService({}, { CODER_IDLE_STOP_SECONDS: "1", CODER_WARM_POOL: "0" });
  const clock = new AbortController();
  const stages = stageClock(t, clock.signal);
  try {
    const creates: Stages[] = [];
    const resumes: Stages[] = [];
    const toTerminal: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      let start = now();
      const { id } = await t.api.workspace.create.mutate({ name: `resume-${i}` });
      await firstToolAnswer(t.api, id);
      creates.push(stages.stages(id, start, now()));
      // Listing is no use of the workspace: it stops after a second of nothing.
      while ((await t.api.workspace.list.query()).find((w) => w.id === id)?.idleStoppedAt === undefined)
        await sleep(100);
      await sleep(1000);
      start = now();
      await t.api.workspace.start.mutate({ workspaceId: id });
      await firstToolAnswer(t.api, id);
      resumes.push(stages.stages(id, start, now()));
      // The terminal, as the original measure: from the same `workspace.start`, its prompt.
      for (;;) {
        const term = await openTerminal(t.url, t.cookie, id, "main");
        const ready = await term
          .waitFor(/\$ /, 10_000)
          .then(() => true)
          .catch(() => false);
        term.ws.close();
        if (ready) break;
      }
      toTerminal.push(now() - start);
      await t.api.workspace.delete.mutate({ workspaceId: id });
    }
    const p50 = (list: Stages[], stage: keyof Stages) =>
      round(
        percentile(
          list.map((s) => s[stage]),
          50,
        ),
        0,
      );
    const resume50 = p50(resumes, "total");
    const create50 = p50(creates, "total");
    const split = (list: Stages[]) =>
      `container started ${p50(list, "container")} ms, then daemon's first answer ${p50(list, "daemon")} ms, then the tool ${p50(list, "tool")} ms (stage p50s)`;
    return [
      {
        name: `cold create (no pool) → first tool answer p50, same run as the resumes (${SAMPLES} samples)`,
        value: create50,
        unit: "ms",
        notes: split(creates),
      },
      {
        name: `resume after idle stop: workspace.start → first tool answer p50 (${SAMPLES} samples)`,
        value: resume50,
        unit: "ms",
        target: "≤ 1500 ms, and < a cold create",
        pass: resume50 <= 1500 && resume50 < create50,
        notes: split(resumes),
      },
      {
        name: "resume / cold create (p50s, same run)",
        value: round(resume50 / create50, 2),
        unit: "×",
        ratio: round(resume50 / create50, 2),
        target: "< 1",
        pass: resume50 < create50,
      },
      {
        name: "resume after idle stop: workspace.start → terminal prompt p50",
        value: round(percentile(toTerminal, 50), 0),
        unit: "ms",
        target: "≤ 1500 ms",
        pass: percentile(toTerminal, 50) <= 1500,
      },
    ];
  } finally {
    clock.abort();
    await t.close();
  }
}

/**
 * Host memory of idle workspaces, 10 at a time. The machine is shared, so MemAvailable moves with
 * other work: the running cost is the median over three rounds of the drop from the 10 stopped to
 * the 10 running (readings a few seconds apart), the stopped cost the drop from none (the mean of
 * before creating and after deleting) to the 10 stopped; beside them what the running containers
 * demonstrably hold (cgroup anonymous + tmpfs memory, containerd shim PSS).
 */
async function memoryPerWorkspace(): Promise<BenchResult[]> {
  const count = 10;
  const t = await startTestService({}, { CODER_MEMORY_MB: "2048", CODER_IDLE_STOP_SECONDS: "0" });
  try {
    const noneBefore = await settledMemAvailable();
    const serviceBefore = process.memoryUsage.rss();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const { id } = await t.api.workspace.create.mutate({ name: `idle-${i}` });
      await waitForStatus(t.api, id, "running");
      ids.push(id);
    }
    const accounted: number[] = [];
    for (const id of ids) accounted.push(await accountedMemoryMiB(t.instance, id));
    const runningDrops: number[] = [];
    const stoppedLevels: number[] = [];
    for (let round = 0; round < 3; round++) {
      const running = await settledMemAvailable();
      for (const id of ids) await t.api.workspace.stop.mutate({ workspaceId: id });
      const stopped = await settledMemAvailable();
      stoppedLevels.push(stopped);
      runningDrops.push((stopped - running) / count);
      if (round < 2) {
        for (const id of ids) await t.api.workspace.start.mutate({ workspaceId: id });
        for (const id of ids) await waitForStatus(t.api, id, "running");
      }
    }
    const serviceGrowth = (process.memoryUsage.rss() - serviceBefore) / 2 ** 20;
    for (const id of ids) await t.api.workspace.delete.mutate({ workspaceId: id });
    const noneAfter = await settledMemAvailable();
    const none = (noneBefore + noneAfter) / 2;
    const notes = "MemAvailable (/proc/meminfo), medians of readings; the machine is shared with other work";
    return [
      {
        name: `host memory per idle running workspace (MemAvailable drop for ${count}, median of 3 rounds)`,
        value: round(percentile(runningDrops, 50), 1),
        unit: "MiB",
        notes,
      },
      {
        name: "idle running workspace: container memory (anon + tmpfs) and containerd shim PSS, p50",
        value: round(percentile(accounted, 50), 1),
        unit: "MiB",
      },
      {
        name: `host memory per stopped workspace (MemAvailable drop for ${count})`,
        value: round((none - percentile(stoppedLevels, 50)) / count, 1),
        unit: "MiB",
        notes,
      },
      {
        name: `of which the service process (RSS growth over the run, per workspace of ${count})`,
        value: round(serviceGrowth / count, 1),
        unit: "MiB",
        notes: "the service runs in the bench's process; V8 keeps what it grew to",
      },
    ];
  } finally {
    await t.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [...(await createToFirstAnswer()), ...(await createVersusResume()), ...(await memoryPerWorkspace())];
}
