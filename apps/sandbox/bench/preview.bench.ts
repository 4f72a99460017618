import { execFile, execFileSync, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import type { Duplex, Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { containerLayout } from "@coder/protocol";
import Docker from "dockerode";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { PortStreams } from "../src/daemon/port-streams";
import { containerName } from "../src/docker/container-spec";
import type { WorkspaceDriver } from "../src/driver/workspace-driver";
import { APP_SERVER } from "../src/preview/testing/app-server";
import { enterPreview, nextMessage, opened, previewSocket } from "../src/preview/testing/preview-client";
import { execIn, instanceDriver, startTestService, waitForStatus } from "../src/testing/harness";
import { until } from "../src/testing/until";

const PORT = 3000;
const WARMUP = 50;
const REQUESTS = 1000;
/**
 * Each load runs in this many turns of REQUESTS / ROUNDS, the ways taking turns, so a shared
 * machine that gets busier or calmer during the run weighs on every way alike.
 */
const ROUNDS = 5;
const CONCURRENCY = 8;
const ECHOES = 300;
const TUNNELS = 20;
const RELAY_STARTS = 5;
/** `curl` processes per side in the literal comparison (one process, one connection, one GET each). */
const CURLS = 200;
/** Where the host's curl goes in the workspace: its volume (the root is read-only, the tmpfs folders noexec). */
const CURL_DIR = `${containerLayout.workspace}/.bench-curl`;

/** What one load run measured: each request's latency (ms) and the run's length (s). */
interface Load {
  latencies: number[];
  seconds: number;
}

/**
 * The keep-alive load, in a process of its own: inside the container against the app directly
 * (`curl` is not in the workspace image, so the baseline is node's own HTTP client), and on the
 * host through the preview or the splice, as a browser is a process of its own (a client in the
 * service's process would take the service's thread for its own work). One process per target for
 * the whole run (its JIT warms up as the service's does): each line on its stdin is a turn of that
 * many GETs (a fresh agent, its connections opened by a warm-up first), answered by one line, the
 * turn's Load as JSON. Arguments: port, warm-up, concurrency, and the request headers as JSON.
 */
const LOAD_PROCESS = `
const http = require("http");
const readline = require("readline");
const [port, warmup, c] = process.argv.slice(1, 4).map(Number);
const headers = JSON.parse(process.argv[4] || "{}");
const turn = async (n) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: c });
  const get = () => new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    http.get({ host: "127.0.0.1", port, path: "/", headers, agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error("the app answered " + res.statusCode));
      res.resume();
      res.on("end", () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    }).on("error", reject);
  });
  const load = async (count, latencies) => {
    let next = 0;
    await Promise.all(Array.from({ length: c }, async () => {
      while (next++ < count) latencies.push(await get());
    }));
  };
  await load(warmup, []);
  const latencies = [];
  const t0 = process.hrtime.bigint();
  await load(n, latencies);
  console.log(JSON.stringify({ latencies, seconds: Number(process.hrtime.bigint() - t0) / 1e9 }));
  agent.destroy();
};
let turns = Promise.resolve();
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  turns = turns.then(() => turn(Number(line)));
});
`;

/**
 * The keep-alive load from this process, through `agent`'s connections (used where no service work
 * shares the thread: straight through a tunnel); the agent is its own, so every connection is open
 * before the timing starts.
 */
async function hostLoad(agent: http.Agent, concurrency: number, requests: number): Promise<Load> {
  const options = { host: "127.0.0.1", port: PORT, path: "/", agent };
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      http
        .get(options, (res) => {
          if (res.statusCode !== 200) reject(new Error(`the app answered ${res.statusCode}`));
          res.resume();
          res.on("end", () => resolve(performance.now() - start));
        })
        .on("error", reject);
    });
  const load = async (count: number, latencies: number[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < count) latencies.push(await get());
      }),
    );
  };
  try {
    // At the same concurrency: every keep-alive tunnel is open before the timing starts.
    await load(WARMUP, []);
    const latencies: number[] = [];
    const t0 = performance.now();
    await load(requests, latencies);
    return { latencies, seconds: (performance.now() - t0) / 1000 };
  } finally {
    agent.destroy();
  }
}

/**
 * The load straight through `streams`' tunnels (one per keep-alive connection), with node's client
 * as inside the container, and no service: the tunnel's own cost.
 */
function tunnelLoad(streams: PortStreams, id: string, concurrency: number, requests: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  Object.assign(agent, {
    createConnection: (_options: unknown, callback: (error: Error | null, socket?: Duplex) => void) => {
      streams.open(id, PORT).then((tunnel) => callback(null, tunnel), callback);
    },
  });
  return hostLoad(agent, concurrency, requests);
}

/**
 * A TCP server in this process that splices each connection to a tunnel of its own, bytes only
 * (no HTTP parsing, no gate): the floor of the service's extra hop.
 */
async function spliceServer(streams: PortStreams, id: string): Promise<net.Server> {
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    client.on("error", () => client.destroy());
    client.pause();
    streams.open(id, PORT).then(
      (tunnel) => {
        client.once("close", () => tunnel.destroy());
        tunnel.once("close", () => client.destroy());
        client.pipe(tunnel).pipe(client);
        client.resume();
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

interface LoadProcess {
  /** Runs `requests` GETs in there, the process's concurrency at a time. */
  turn(requests: number): Promise<Load>;
  close(): Promise<void> | void;
}

/** A LOAD_PROCESS, given its standard streams. */
function loadProcess(
  io: { stdin: Writable; stdout: Readable; stderr: Readable },
  close: () => Promise<void> | void,
): LoadProcess {
  io.stderr.resume();
  const answers: ((load: Load) => void)[] = [];
  readline
    .createInterface({ input: io.stdout })
    .on("line", (line) => answers.shift()?.(JSON.parse(line) as Load));
  return {
    turn: (requests) =>
      new Promise<Load>((resolve) => {
        answers.push(resolve);
        io.stdin.write(`${requests}\n`);
      }),
    close,
  };
}

const loadArgs = (port: number, concurrency: number, headers: http.OutgoingHttpHeaders = {}) => [
  "-e",
  LOAD_PROCESS,
  String(port),
  String(WARMUP),
  String(concurrency),
  JSON.stringify(headers),
];

/** The load inside the container, straight to the app. */
async function containerLoads(
  driver: WorkspaceDriver,
  id: string,
  concurrency: number,
): Promise<LoadProcess> {
  const proc = await driver.exec(id, ["node", ...loadArgs(PORT, concurrency)]);
  return loadProcess(proc, () => proc.close());
}

/** The load from a process on the host, as a browser is: to `port` of this host with `headers`. */
function hostProcessLoads(
  port: number,
  concurrency: number,
  headers?: http.OutgoingHttpHeaders,
): LoadProcess {
  const proc = spawn(process.execPath, loadArgs(port, concurrency, headers), { stdio: "pipe" });
  return loadProcess(proc, () => {
    proc.kill();
  });
}

/** The turns of one way as one load. */
function joined(turns: Load[]): Load {
  return {
    latencies: turns.flatMap((turn) => turn.latencies),
    seconds: turns.reduce((sum, turn) => sum + turn.seconds, 0),
  };
}

function rows(label: string, via: Load, direct: Load, concurrency: number): BenchResult[] {
  const p = (load: Load, q: number) => round(percentile(load.latencies, q), 3);
  const rps = (load: Load) => round(load.latencies.length / load.seconds, 0);
  const ratio50 = round(p(via, 50) / p(direct, 50), 2);
  const throughput = round(rps(via) / rps(direct), 2);
  const notes = `${REQUESTS} GETs of a small page, ${concurrency} at a time, keep-alive both ways, in ${ROUNDS} turns taken with the other ways; node's client in a process of its own on each side: inside the container straight to the app (no curl in the image), on the host through the preview`;
  return [
    { name: `${label}: p50 through the preview`, value: p(via, 50), unit: "ms" },
    { name: `${label}: p99 through the preview`, value: p(via, 99), unit: "ms" },
    { name: `${label}: p50 inside the container`, value: p(direct, 50), unit: "ms" },
    { name: `${label}: p99 inside the container`, value: p(direct, 99), unit: "ms" },
    {
      name: `${label}: latency p50, preview / inside`,
      value: ratio50,
      unit: "×",
      ratio: ratio50,
      target: "≤ 2×",
      pass: ratio50 <= 2,
      notes,
    },
    { name: `${label}: requests per second through the preview`, value: rps(via), unit: "req/s" },
    { name: `${label}: requests per second inside the container`, value: rps(direct), unit: "req/s" },
    {
      name: `${label}: throughput, preview / inside`,
      value: throughput,
      unit: "×",
      ratio: throughput,
      target: "≥ 0.5×",
      pass: throughput >= 0.5,
      notes,
    },
  ];
}

/**
 * A row pair for one part of the split (see `run`): its p50 and its requests per second, each as a
 * ratio to the same load inside the container.
 */
function splitRows(label: string, part: string, load: Load, direct: Load): BenchResult[] {
  const p50 = (l: Load) => percentile(l.latencies, 50);
  const rps = (l: Load) => l.latencies.length / l.seconds;
  return [
    {
      name: `${label}: p50 ${part}`,
      value: round(p50(load), 3),
      unit: "ms",
      ratio: round(p50(load) / p50(direct), 2),
    },
    {
      name: `${label}: requests per second ${part}`,
      value: round(rps(load), 0),
      unit: "req/s",
      ratio: round(rps(load) / rps(direct), 2),
    },
  ];
}

/**
 * p50 of a POST through the preview whose body leaves in a second write, 1 ms after its head (a
 * browser's fetch with a streamed body, a form upload): the hop toward the app must not hold the
 * body back for the app's delayed acknowledgement (Nagle's algorithm: some 40 ms each).
 */
async function postsInPieces(root: string, cookie: string, times: number): Promise<number> {
  const origin = new URL(root);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      const req = http.request(
        {
          host: "127.0.0.1",
          port: origin.port,
          method: "POST",
          path: "/echo",
          agent,
          headers: { host: origin.host, cookie, "content-length": "5" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(performance.now() - start));
        },
      );
      req.on("error", reject);
      req.flushHeaders();
      setTimeout(() => req.end("hello"), 1);
    });
  try {
    const took: number[] = [];
    for (let i = 0; i < times; i++) took.push(await post());
    return round(percentile(took, 50), 1);
  } finally {
    agent.destroy();
  }
}

/** p50 of the time `streams.open` takes, `times` times (each tunnel closed at once); `before` runs first each time. */
async function openTimes(
  streams: PortStreams,
  id: string,
  times: number,
  before: () => Promise<void> = async () => undefined,
): Promise<number> {
  const opens: number[] = [];
  for (let i = 0; i < times; i++) {
    await before();
    const start = performance.now();
    const tunnel = await streams.open(id, PORT);
    opens.push(performance.now() - start);
    tunnel.destroy();
  }
  return round(percentile(opens, 50), 1);
}

/**
 * The host's `curl` and its libcurl, brought into the workspace through one exec's stdin (the image
 * has no curl; every other library it needs is the image's own, both being Debian bookworm). False,
 * with the reason logged, where that does not work (no curl on the host, another distribution).
 */
async function curlInWorkspace(driver: WorkspaceDriver, instance: string, id: string): Promise<boolean> {
  try {
    const ldd = execFileSync("ldd", ["/usr/bin/curl"], { encoding: "utf8" });
    const libcurl = /libcurl\.so\.4 => (\S+)/.exec(ldd)?.[1];
    if (!libcurl) throw new Error("the host's curl has no libcurl.so.4");
    const tar = execFileSync("tar", [
      "-chf",
      "-",
      "-C",
      "/usr/bin",
      "curl",
      "-C",
      path.dirname(libcurl),
      "libcurl.so.4",
    ]);
    const untar = await driver.exec(id, ["sh", "-c", `mkdir -p ${CURL_DIR} && tar -xf - -C ${CURL_DIR}`]);
    untar.stdout.resume();
    untar.stderr.resume();
    untar.stdin.end(tar);
    if ((await untar.exited) !== 0) throw new Error("tar in the workspace failed");
    const { code, out } = await execIn(instance, id, [
      "env",
      `LD_LIBRARY_PATH=${CURL_DIR}`,
      `${CURL_DIR}/curl`,
      "--version",
    ]);
    if (code !== 0) throw new Error(out);
    return true;
  } catch (error) {
    console.log(`  (no curl rows: ${(error as Error).message})`);
    return false;
  }
}

/** A command run `times` times by one shell: `sh -c LOOP sh <times> <command…>`. */
const loop = (times: number, command: string[]) => [
  "sh",
  "-c",
  'n=$1; shift; for i in $(seq "$n"); do "$@"; done',
  "sh",
  String(times),
  ...command,
];

/** Each curl's time_total, in ms. */
function curlTimes(output: string): number[] {
  return output
    .split("\n")
    .filter((line) => /^[0-9.]+$/.test(line))
    .map((line) => Number(line) * 1000);
}
const CURL_ARGS = ["-s", "--max-time", "10", "-o", "/dev/null", "-w", "%{time_total}\n"];
const execFileAsync = promisify(execFile);

/**
 * The literal baseline: `curl` to the app inside the container, one process per request
 * (a loop run by one `docker exec`), against one `curl` process per request on the host through the
 * preview; each timed by curl itself (connection included).
 */
async function curlRows(
  driver: WorkspaceDriver,
  instance: string,
  id: string,
  root: string,
  cookie: string,
): Promise<BenchResult[]> {
  if (!(await curlInWorkspace(driver, instance, id))) return [];
  const origin = new URL(root);
  const direct: number[] = [];
  const via: number[] = [];
  // In turns, as the loads above.
  for (let round = 0; round < ROUNDS; round++) {
    const inside = await execIn(instance, id, [
      "env",
      `LD_LIBRARY_PATH=${CURL_DIR}`,
      ...loop(CURLS / ROUNDS, [`${CURL_DIR}/curl`, ...CURL_ARGS, `http://127.0.0.1:${PORT}/`]),
    ]);
    direct.push(...curlTimes(inside.out));
    // Not execFileSync: the service answering these runs in this very process.
    const { stdout: through } = await execFileAsync(
      "sh",
      loop(CURLS / ROUNDS, [
        "curl",
        ...CURL_ARGS,
        "-H",
        `Host: ${origin.host}`,
        "-H",
        `Cookie: ${cookie}`,
        `http://127.0.0.1:${origin.port}/`,
      ]).slice(1),
      { encoding: "utf8" },
    );
    via.push(...curlTimes(through));
  }
  if (direct.length !== CURLS || via.length !== CURLS)
    throw new Error(`curl gave ${direct.length} and ${via.length} times`);
  const p = (times: number[], q: number) => round(percentile(times, q), 2);
  const ratio = round(percentile(via, 50) / percentile(direct, 50), 2);
  return [
    { name: "one curl process per GET: p50 through the preview", value: p(via, 50), unit: "ms" },
    { name: "one curl process per GET: p99 through the preview", value: p(via, 99), unit: "ms" },
    { name: "one curl process per GET: p50 inside the container", value: p(direct, 50), unit: "ms" },
    { name: "one curl process per GET: p99 inside the container", value: p(direct, 99), unit: "ms" },
    {
      name: "one curl process per GET: latency p50, preview / inside",
      value: ratio,
      unit: "×",
      ratio,
      target: "≤ 2×",
      pass: ratio <= 2,
      notes: `${CURLS} curl processes each side in ${ROUNDS} turns, timed by curl (-w %{time_total}), a new connection each; the host's curl copied into the workspace`,
    },
  ];
}

/** The same driver without its relay: tunnels by `docker exec`, as under gVisor or a remote engine. */
function withoutRelay(driver: WorkspaceDriver): WorkspaceDriver {
  return Object.create(driver, { portConnection: { value: undefined } }) as WorkspaceDriver;
}

/**
 * A small page through the preview origin (the service's HTTP server, the gate's checks in the
 * database, a keep-alive tunnel into the container) against the same load inside the container;
 * a WebSocket echo round trip through the preview; and what a new tunnel costs: a connection asked
 * of the workspace's relay, the relay's start (a workspace's first connection), and one docker exec
 * of the fallback relay. The service runs as deployed on a host (the relay a process in the
 * workspace's network namespace, handing the app's sockets over); a relay container, as Compose runs
 * it, is measured beside it without the service (b').
 */
export async function run(): Promise<BenchResult[]> {
  const t = await startTestService();
  try {
    const { id } = await t.api.workspace.create.mutate({ name: "preview-bench" });
    await waitForStatus(t.api, id, "running");
    const driver = instanceDriver(t.instance);
    const app = await driver.exec(id, ["node", "-e", APP_SERVER, String(PORT)]);
    app.stdout.resume();
    app.stderr.resume();
    try {
      let root = "";
      await until(async () => {
        const { ports } = await t.api.preview.list.query({ workspaceId: id });
        root = ports.find((p) => p.port === PORT)?.url ?? "";
        return root !== "";
      }, "the app listens");
      const { cookie } = await enterPreview(
        (await t.api.preview.open.mutate({ workspaceId: id, port: PORT })).url,
      );

      const results: BenchResult[] = [];
      const streams = new PortStreams(driver);
      const containerRelayDriver = instanceDriver(t.instance, { CODER_PREVIEW_RELAY: "container" });
      const containerRelayed = new PortStreams(containerRelayDriver);
      const splice = await spliceServer(streams, id);
      const splicePort = (splice.address() as net.AddressInfo).port;
      try {
        // The split, side by side in one run: (a) inside the container, (b) this process straight
        // on the app's socket the relay handed over, (b') through a relay container's socket
        // instead, (c) a byte splice in this process to the app's socket and (d) the preview, both
        // asked by a process of its own on the host.
        for (const concurrency of [1, CONCURRENCY]) {
          const label = `${concurrency} at a time`;
          const turns: Record<
            "direct" | "relayed" | "containerRelayed" | "spliced" | "via" | "uncached",
            Load[]
          > = {
            direct: [],
            relayed: [],
            containerRelayed: [],
            spliced: [],
            via: [],
            uncached: [],
          };
          const requests = REQUESTS / ROUNDS;
          const inside = await containerLoads(driver, id, concurrency);
          const origin = new URL(root);
          const previewed = hostProcessLoads(Number(origin.port), concurrency, { host: origin.host, cookie });
          const splicing = hostProcessLoads(splicePort, concurrency);
          // Round 0 warms every way up and is not counted.
          for (let round = 0; round <= ROUNDS; round++) {
            if (round === 1) for (const way of Object.values(turns)) way.length = 0;
            turns.direct.push(await inside.turn(requests));
            turns.relayed.push(await tunnelLoad(streams, id, concurrency, requests));
            turns.containerRelayed.push(await tunnelLoad(containerRelayed, id, concurrency, requests));
            turns.spliced.push(await splicing.turn(requests));
            turns.via.push(await previewed.turn(requests));
            // The A/B of one run: the gate's four lookups in the database on every request.
            t.service.access.enabled = false;
            turns.uncached.push(
              await previewed.turn(requests).finally(() => {
                t.service.access.enabled = true;
              }),
            );
          }
          await inside.close();
          previewed.close();
          splicing.close();
          const [direct, relayed, containerRelayedLoad, spliced, via, uncached] = [
            turns.direct,
            turns.relayed,
            turns.containerRelayed,
            turns.spliced,
            turns.via,
            turns.uncached,
          ].map(joined) as [Load, Load, Load, Load, Load, Load];
          results.push(
            ...rows(label, via, direct, concurrency),
            ...splitRows(
              label,
              "straight on the app's socket the relay handed over, no service (b)",
              relayed,
              direct,
            ),
            ...splitRows(
              label,
              "straight through a relay container's socket instead, no service (b')",
              containerRelayedLoad,
              direct,
            ),
            ...splitRows(
              label,
              "through a byte splice in the service's process to the app's socket (c)",
              spliced,
              direct,
            ),
            ...splitRows(label, "through the preview, the access cache off", uncached, direct),
          );
        }
      } finally {
        splice.close();
      }

      results.push(...(await curlRows(driver, t.instance, id, root, cookie)));

      const ws = previewSocket(root, cookie);
      await opened(ws);
      const echoes: number[] = [];
      for (let i = 0; i < WARMUP + ECHOES; i++) {
        const start = performance.now();
        const echoed = nextMessage(ws);
        ws.send(`echo ${i}`);
        await echoed;
        if (i >= WARMUP) echoes.push(performance.now() - start);
      }
      ws.close();
      results.push(
        {
          name: "a POST whose body follows its head 1 ms later, through the preview p50",
          value: await postsInPieces(root, cookie, 40),
          unit: "ms",
          notes: "some 45 ms while the relay's connection to the app kept Nagle's algorithm on",
        },
        {
          name: "WebSocket echo round trip through the preview p50",
          value: round(percentile(echoes, 50), 3),
          unit: "ms",
        },
        {
          name: "WebSocket echo round trip through the preview p99",
          value: round(percentile(echoes, 99), 3),
          unit: "ms",
        },
      );

      const relayContainer = new Docker().getContainer(`${containerName(t.instance, id)}-relay`);
      results.push(
        {
          name: "a new tunnel (a connection asked of the workspace's relay) p50",
          value: await openTimes(streams, id, TUNNELS),
          unit: "ms",
          notes: "paid once per keep-alive tunnel (the pool keeps up to 8 idle per port for 15 s)",
        },
        {
          name: "a workspace's first tunnel (the relay process starts in its namespace) p50",
          // Each time with its relay ended, as at the workspace's first preview.
          value: await openTimes(streams, id, RELAY_STARTS, () => driver.settle()),
          unit: "ms",
          notes: "once per workspace start",
        },
        {
          name: "a new tunnel through a relay container (as Compose runs it) p50",
          value: await openTimes(containerRelayed, id, TUNNELS),
          unit: "ms",
        },
        {
          name: "a workspace's first tunnel through a relay container (it starts) p50",
          value: await openTimes(containerRelayed, id, RELAY_STARTS, () =>
            relayContainer.remove({ force: true }),
          ),
          unit: "ms",
        },
      );
      results.push({
        name: "a new tunnel without a relay (one docker exec, gVisor or a remote engine) p50",
        value: await openTimes(new PortStreams(withoutRelay(driver)), id, TUNNELS),
        unit: "ms",
      });
      await driver.settle();
      return results;
    } finally {
      await app.close();
    }
  } finally {
    await t.close();
  }
}
