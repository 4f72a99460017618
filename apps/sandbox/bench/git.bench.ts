import { createTRPCClient, httpLink } from "@trpc/client";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { execIn, startTestService, waitForStatus } from "../src/testing/harness";
import { until } from "../src/testing/until";
import type { AppRouter } from "../src/trpc/router";

const FILES = 20_000;
const CHANGED = 200;
/** Samples with the access cache, and as many without (auth/access-cache.ts: the A/B of one run). */
const RUNS = 40;
const STATUS = "git status --porcelain=v2 --branch -z --untracked-files=all";

/** 20 000 files in 200 folders, committed; then 200 of them changed (100 edited, 50 deleted, 50 new). */
const MAKE_REPOSITORY = `
set -e
cd /workspace
git init --quiet --initial-branch=main
for d in $(seq 0 199); do mkdir -p dir$d; for f in $(seq 0 99); do echo "file $d $f" > dir$d/file$f.txt; done; done
git add -A
git -c user.name=Bench -c user.email=bench@example.invalid commit --quiet -m files
for f in $(seq 0 99); do echo changed >> dir$f/file0.txt; done
for f in $(seq 100 149); do rm dir$f/file0.txt; done
for f in $(seq 150 199); do echo new > dir$f/new.txt; done
`;

/** Times the same status in the container itself, in microseconds: as is, then as the daemon runs it. */
const timeInContainer = `
cd /workspace
start=$(date +%s%N); ${STATUS} > /dev/null; end=$(date +%s%N)
echo $(( (end - start) / 1000 ))
start=$(date +%s%N); GIT_OPTIONAL_LOCKS=0 ${STATUS} > /dev/null; end=$(date +%s%N)
echo $(( (end - start) / 1000 ))
`;

export async function run(): Promise<BenchResult[]> {
  // A workspace as users get it by default (2 CPUs, 2 GB).
  const t = await startTestService({}, { CODER_CPUS: "2", CODER_MEMORY_MB: "2048" });
  try {
    const { id: workspaceId } = await t.api.workspace.create.mutate({ name: "git-bench" });
    await waitForStatus(t.api, workspaceId, "running", 300_000);
    // Counting from now: the daemon's file watcher reports the 20 000 new files as they come.
    let lastChange = performance.now();
    const quiet = new AbortController();
    void (async () => {
      for await (const _ of t.service.daemons.fileFeed(workspaceId).subscribe(undefined, quiet.signal)) {
        lastChange = performance.now();
      }
    })();
    const made = await execIn(t.instance, workspaceId, ["sh", "-c", MAKE_REPOSITORY]);
    if (made.code !== 0) throw new Error(`could not make the repository: ${made.out}`);
    const first = await t.api.git.status.query({ workspaceId });
    if (first.files.length !== CHANGED)
      throw new Error(`expected ${CHANGED} changed files, saw ${first.files.length}`);

    // A settled workspace: the watcher has reported every new file (two seconds without a change).
    await until(() => performance.now() - lastChange > 2000, "the file watcher settles", 300_000);
    quiet.abort();

    // Each sample pairs the three ways back to back, so load on the shared machine hits all alike.
    const service: number[] = [];
    const daemonOnly: number[] = [];
    // The same call with every session and role lookup going to the database.
    const serviceUncached: number[] = [];
    // The same call from a client that sends it at once: the usual client (the web UI's too) waits
    // a timer tick to batch calls together, which Node makes at least a millisecond.
    const serviceUnbatched: number[] = [];
    const unbatched = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${t.url}/api/trpc`, headers: () => ({ origin: t.url, cookie: t.cookie }) })],
    });
    const daemonOnlyUncached: number[] = [];
    const container: number[] = [];
    // A status in the background never takes the index lock (a person's git in a terminal would
    // find it locked), so it never rewrites a stale index: the daemon runs it so.
    const containerNoLocks: number[] = [];
    const daemon = await t.service.daemons.running(workspaceId);
    let cached = true;
    const throughService = async () => {
      const start = performance.now();
      await t.api.git.status.query({ workspaceId });
      (cached ? service : serviceUncached).push(performance.now() - start);
    };
    // Without the HTTP edge, session and role checks: where the rest of the time goes.
    const straightToDaemon = async () => {
      const start = performance.now();
      await daemon.request("git.status", {});
      (cached ? daemonOnly : daemonOnlyUncached).push(performance.now() - start);
    };
    for (let i = 0; i < 2 * RUNS; i++) {
      // Two samples with the cache, two without, each way round.
      cached = i % 4 < 2;
      t.service.access.enabled = cached;
      // The two take turns going first: the call right after the container's own status (which
      // rewrites the index, and the daemon's watcher reports that) may pay for it.
      if (i % 2 === 0) {
        await throughService();
        await straightToDaemon();
      } else {
        await straightToDaemon();
        await throughService();
      }
      if (cached) {
        const start = performance.now();
        await unbatched.git.status.query({ workspaceId });
        serviceUnbatched.push(performance.now() - start);
      }
      const timed = await execIn(t.instance, workspaceId, ["sh", "-c", timeInContainer]);
      const [plain = Number.NaN, noLocks = Number.NaN] = timed.out
        .trim()
        .split("\n")
        .map((us) => Number(us) / 1000);
      container.push(plain);
      containerNoLocks.push(noLocks);
    }
    const ours = percentile(service, 50);
    const theirs = percentile(container, 50);
    const ratio = round(ours / theirs, 2);
    const size = `${FILES} files, ${CHANGED} changed, median of ${service.length}`;
    const leg = (through: number[], straight: number[]) =>
      round(
        percentile(
          through.map((ms, i) => ms - (straight[i] ?? Number.NaN)),
          50,
        ),
        1,
      );
    return [
      { name: `git status in the container (${size})`, value: round(theirs, 1), unit: "ms" },
      {
        name: "the same with GIT_OPTIONAL_LOCKS=0 (as the daemon runs it)",
        value: round(percentile(containerNoLocks, 50), 1),
        unit: "ms",
      },
      {
        name: "git.status straight to the daemon (the service's own call, no tRPC)",
        value: round(percentile(daemonOnly, 50), 1),
        unit: "ms",
      },
      {
        // Paired per sample, so the status's own spread cancels out.
        name: "the tRPC leg: through the service minus straight to the daemon, median of pairs",
        value: leg(service, daemonOnly),
        unit: "ms",
      },
      {
        name: "the tRPC leg with the access cache off (every session and role lookup in the database), same run",
        value: leg(serviceUncached, daemonOnlyUncached),
        unit: "ms",
      },
      {
        name: "git.status through the service from a client that does not batch (no timer tick), same run",
        value: round(percentile(serviceUnbatched, 50), 1),
        unit: "ms",
        ratio: round(percentile(serviceUnbatched, 50) / theirs, 2),
      },
      {
        name: "git.status through the service with the access cache off, same run",
        value: round(percentile(serviceUncached, 50), 1),
        unit: "ms",
        ratio: round(percentile(serviceUncached, 50) / theirs, 2),
      },
      {
        name: "git.status through the service (tRPC → daemon → git, parsed and checked)",
        value: round(ours, 1),
        unit: "ms",
        ratio,
        target: "≤ 1.3×",
        pass: ratio <= 1.3,
      },
    ];
  } finally {
    await t.close();
  }
}
