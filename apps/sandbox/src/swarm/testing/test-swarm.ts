// Test support: a Docker Swarm of two extra engines (a manager and a worker) on this machine, each in
// a network namespace of its own, so the Swarm driver's tests run against a real swarm while the main
// engine stays untouched. Everything it makes is named `csw<pid>…` (the pid of the test process that
// made it): what a killed run left is found by that name and removed at the next start.
import { execFile, spawn } from "node:child_process";
import { openSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import Docker from "dockerode";
import { ensureSwarmTools } from "../../../../../scripts/lib/swarm-tools.mjs";
import type { ClusterTlsFiles } from "../../config/swarm-nodes-config";
import { until } from "../../testing/until";
import { makeClusterCertificates } from "./test-certificates";

const run = promisify(execFile);

const PREFIX = "csw";
const NODE_NAME = /^csw(\d+)-(\d)$/;
const HOST_LINK = /^csw(\d+)h\d$/;
const RUN_ROOT = "/run";
const DATA_ROOT = "/var/lib/coder-test-swarm";
const CGROUP_ROOT = "/sys/fs/cgroup";
/** The manager engine's API over TLS, as an instance on a worker reaches it (CODER_SWARM_MANAGER). */
const MANAGER_TLS_PORT = 2376;

export interface TestSwarmNode {
  /** `csw<pid>-<n>`: the network namespace, its engine's folders and its containers' cgroup parent. */
  name: string;
  /** The engine's API socket (`DOCKER_HOST=unix://…`). */
  socket: string;
  docker: Docker;
  /** The node's Swarm id. */
  nodeId: string;
  /** The node's address on the link between the two nodes (Swarm's traffic). */
  address: string;
  /** The host's end of the node's own link to the host: the host as the node sees it. */
  hostAddress: string;
  /** The node's end of that link: the node as the host sees it. */
  linkAddress: string;
}

export interface TestSwarm {
  manager: TestSwarmNode;
  worker: TestSwarmNode;
  /**
   * The cluster's CA and a certificate it signs for 127.0.0.1 and both nodes' link addresses: the
   * manager engine's TLS API takes it, and the service instances use it for their node channels.
   */
  tls: ClusterTlsFiles;
  /** `tcp://<manager>:2376`: the manager's engine API, mutual TLS with `tls` only. */
  managerEndpoint: string;
  /** Leaves the swarm, stops both engines, deletes their namespaces, links and folders. */
  remove(): Promise<void>;
}

interface NodePlan {
  name: string;
  hostLink: string;
  hostAddress: string;
  address: string;
  linkAddress: string;
  bridge: string;
}

function runDir(name: string): string {
  return path.join(RUN_ROOT, name);
}

function socketOf(name: string): string {
  return path.join(runDir(name), "docker.sock");
}

function plan(pid: number): [NodePlan, NodePlan] {
  // 198.18.0.0/15 is for benchmarks: it clashes with no real network. Three /30 links per run: host
  // ↔ node 1, host ↔ node 2, node 1 ↔ node 2.
  const net = `198.18.${1 + (pid % 199)}`;
  return [1, 2].map((n) => ({
    name: `${PREFIX}${pid}-${n}`,
    hostLink: `${PREFIX}${pid}h${n}`,
    hostAddress: `${net}.${n === 1 ? 1 : 5}`,
    linkAddress: `${net}.${n === 1 ? 2 : 6}`,
    address: `${net}.${n === 1 ? 9 : 10}`,
    // The main engine's default bridge is 172.17.0.0/16.
    bridge: `10.231.${n}.1/24`,
  })) as [NodePlan, NodePlan];
}

async function ip(...args: string[]): Promise<void> {
  await run("ip", args);
}

/**
 * Starts the two engines, forms the swarm and loads `images` from the main engine into both. A failure
 * on the way removes what was made before it is thrown.
 */
export async function startTestSwarm(images: string[]): Promise<TestSwarm> {
  await ensureSwarmTools();
  await removeStaleTestSwarms();
  const plans = plan(process.pid);
  const remove = () => removeNodes(plans.map((p) => p.name));
  try {
    // With the manager's folders: removed with them, also by a later run's clean-up.
    const tls = await makeClusterCertificates(path.join(runDir(plans[0].name), "tls"), [
      "127.0.0.1",
      ...plans.map((p) => p.linkAddress),
    ]);
    await linkNamespaces(plans);
    const dockers = await Promise.all(plans.map((p, i) => startEngine(p, i === 0 ? tls : undefined)));
    const [manager, worker] = await formSwarm(plans, dockers as [Docker, Docker]);
    await loadImages(images, [manager.docker, worker.docker]);
    return {
      manager,
      worker,
      tls,
      managerEndpoint: `tcp://${plans[0].linkAddress}:${MANAGER_TLS_PORT}`,
      remove,
    };
  } catch (err) {
    await remove();
    throw err;
  }
}

async function linkNamespaces([one, two]: [NodePlan, NodePlan]): Promise<void> {
  for (const node of [one, two]) {
    await ip("netns", "add", node.name);
    await ip("-n", node.name, "link", "set", "lo", "up");
    await ip("link", "add", node.hostLink, "type", "veth", "peer", "name", "host", "netns", node.name);
    await ip("addr", "add", `${node.hostAddress}/30`, "dev", node.hostLink);
    await ip("link", "set", node.hostLink, "up");
    await ip("-n", node.name, "addr", "add", `${node.linkAddress}/30`, "dev", "host");
    await ip("-n", node.name, "link", "set", "host", "up");
    await ip("-n", node.name, "route", "add", "default", "via", node.hostAddress);
  }
  await ip("-n", one.name, "link", "add", "peer", "type", "veth", "peer", "name", "peer", "netns", two.name);
  for (const node of [one, two]) {
    await ip("-n", node.name, "addr", "add", `${node.address}/30`, "dev", "peer");
    await ip("-n", node.name, "link", "set", "peer", "up");
  }
}

/** Starts a node's engine; with `tls`, it also serves its API on MANAGER_TLS_PORT to cluster certificates only. */
async function startEngine(node: NodePlan, tls?: ClusterTlsFiles): Promise<Docker> {
  const dir = runDir(node.name);
  await mkdir(dir, { recursive: true });
  await mkdir(path.join(DATA_ROOT, node.name), { recursive: true });
  const log = openSync(path.join(dir, "dockerd.log"), "a");
  // `nsenter --net`, not `ip netns exec`: that one remounts /sys, and the engine then finds no cgroups.
  const engine = spawn(
    "nsenter",
    [
      `--net=/run/netns/${node.name}`,
      "dockerd",
      `--data-root=${path.join(DATA_ROOT, node.name)}`,
      `--exec-root=${path.join(dir, "exec")}`,
      `--pidfile=${path.join(dir, "docker.pid")}`,
      `--host=unix://${socketOf(node.name)}`,
      `--bip=${node.bridge}`,
      `--cgroup-parent=/${node.name}`,
      "--userland-proxy=false",
      ...(tls
        ? [
            `--host=tcp://0.0.0.0:${MANAGER_TLS_PORT}`,
            "--tlsverify",
            `--tlscacert=${tls.ca}`,
            `--tlscert=${tls.cert}`,
            `--tlskey=${tls.key}`,
          ]
        : []),
    ],
    // Detached: a killed test run leaves the engine to the next run's clean-up, not half stopped.
    { detached: true, stdio: ["ignore", log, log] },
  );
  engine.unref();
  const docker = new Docker({ socketPath: socketOf(node.name) });
  await until(
    () =>
      docker.ping().then(
        () => true,
        () => {
          if (engine.exitCode !== null) throw new Error(engineExited(node.name));
          return false;
        },
      ),
    `the engine ${node.name} answers`,
    60_000,
  );
  return docker;
}

function engineExited(name: string): string {
  const log = readFileSync(path.join(runDir(name), "dockerd.log"), "utf8");
  return `the engine ${name} exited:\n${log.split("\n").slice(-10).join("\n")}`;
}

async function formSwarm(
  [one, two]: [NodePlan, NodePlan],
  [manager, worker]: [Docker, Docker],
): Promise<[TestSwarmNode, TestSwarmNode]> {
  await manager.swarmInit({
    ListenAddr: `${one.address}:2377`,
    AdvertiseAddr: one.address,
    // Overlay networks (one per workspace) come from here, far from the links and the bridges.
    DefaultAddrPool: ["10.232.0.0/16"],
    SubnetSize: 24,
  });
  const { JoinTokens } = (await manager.swarmInspect()) as { JoinTokens: { Worker: string } };
  await worker.swarmJoin({
    ListenAddr: `${two.address}:2377`,
    AdvertiseAddr: two.address,
    RemoteAddrs: [`${one.address}:2377`],
    JoinToken: JoinTokens.Worker,
  });
  const nodeId = async (docker: Docker) =>
    ((await docker.info()) as { Swarm: { NodeID: string } }).Swarm.NodeID;
  const [managerId, workerId] = [await nodeId(manager), await nodeId(worker)];
  await until(
    async () => {
      const nodes = await manager.listNodes();
      return nodes.some((n) => n.ID === workerId && n.Status?.State === "ready");
    },
    "the worker is ready in the swarm",
    60_000,
  );
  const node = (p: NodePlan, docker: Docker, id: string): TestSwarmNode => ({
    name: p.name,
    socket: socketOf(p.name),
    docker,
    nodeId: id,
    address: p.address,
    hostAddress: p.hostAddress,
    linkAddress: p.linkAddress,
  });
  return [node(one, manager, managerId), node(two, worker, workerId)];
}

/** One `docker save` from the main engine, streamed into every node's engine at once. */
async function loadImages(images: string[], engines: Docker[]): Promise<void> {
  const main = new Docker();
  for (const image of images) {
    const saved = (await main.getImage(image).get()) as NodeJS.ReadableStream;
    const copies = engines.map(() => new PassThrough());
    saved.on("error", (err) => {
      for (const copy of copies) copy.destroy(err);
    });
    for (const copy of copies) saved.pipe(copy);
    await Promise.all(
      engines.map(async (docker, i) => {
        const answer = (await docker.loadImage(copies[i] as PassThrough)) as NodeJS.ReadableStream;
        await new Promise<void>((resolve, reject) =>
          docker.modem.followProgress(answer, (err) => (err ? reject(err) : resolve())),
        );
      }),
    );
    for (const docker of engines) await docker.getImage(image).inspect();
  }
}

function pidAlive(pid: number): boolean {
  if (pid <= 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes what test runs that are gone left: engines, namespaces, links, folders, cgroups. */
export async function removeStaleTestSwarms(): Promise<void> {
  const netns = await run("ip", ["netns", "list"]).then((r) =>
    r.stdout.split("\n").map((l) => l.split(" ")[0] ?? ""),
  );
  const folders = [
    ...(await readdir(RUN_ROOT).catch(() => [])),
    ...(await readdir(DATA_ROOT).catch(() => [])),
    ...cgroupControllers().flatMap((c) => safeReaddir(path.join(CGROUP_ROOT, c))),
  ];
  const names = new Set([...netns, ...folders].filter((n) => NODE_NAME.test(n)));
  const stale = [...names].filter((n) => {
    const pid = Number(NODE_NAME.exec(n)?.[1]);
    return pid !== process.pid && !pidAlive(pid);
  });
  await removeNodes(stale);
  // A host link whose namespace is gone went with it; one whose namespace was never made stays.
  const links = await run("ip", ["-o", "link", "show"]).then((r) =>
    r.stdout.split("\n").flatMap((l) => {
      const name = /^\d+: ([^:@]+)/.exec(l)?.[1] ?? "";
      const pid = Number(HOST_LINK.exec(name)?.[1]);
      return HOST_LINK.test(name) && pid !== process.pid && !pidAlive(pid) ? [name] : [];
    }),
  );
  for (const link of links) await ip("link", "del", link).catch(() => undefined);
}

function cgroupControllers(): string[] {
  return safeReaddir(CGROUP_ROOT);
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

async function removeNodes(names: string[]): Promise<void> {
  // Workers first: a manager gone first leaves them retrying it.
  for (const name of [...names].sort().reverse()) await removeNode(name);
}

async function removeNode(name: string): Promise<void> {
  const docker = new Docker({ socketPath: socketOf(name) });
  await docker.swarmLeave({ force: true }).catch(() => undefined);
  await stopEngine(name);
  await killEverythingOf(name);
  await unmountUnder([runDir(name), path.join(DATA_ROOT, name), `/run/netns/${name}`]);
  await detachDiskImages(path.join(DATA_ROOT, name, "coder-disks"));
  await ip("netns", "del", name).catch(() => undefined);
  await rm(runDir(name), { recursive: true, force: true });
  await rm(path.join(DATA_ROOT, name), { recursive: true, force: true });
  await removeCgroups(name);
}

/**
 * Takes the node's disk images off their loop devices: removing its data root without this leaves
 * the devices attached to deleted files, a bounded resource of the host every run would use up.
 */
async function detachDiskImages(folder: string): Promise<void> {
  for (const image of safeReaddir(folder).filter((f) => f.endsWith(".img"))) {
    const { stdout } = await run("losetup", [
      "--list",
      "--noheadings",
      "--output",
      "NAME",
      "--associated",
      path.join(folder, image),
    ]);
    for (const device of stdout
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean))
      await run("losetup", ["--detach", device]).catch(() => undefined);
  }
}

/** Runs the docker CLI against a node's engine, as an operator on that machine would. */
export async function dockerOn(node: TestSwarmNode, ...args: string[]): Promise<string> {
  return (await run("docker", ["-H", `unix://${node.socket}`, ...args])).stdout;
}

/** `docker node update --availability …` of `node`, through the manager. */
export async function setAvailability(
  swarm: TestSwarm,
  node: TestSwarmNode,
  availability: "active" | "pause" | "drain",
): Promise<void> {
  await dockerOn(swarm.manager, "node", "update", "--availability", availability, node.nodeId);
}

/**
 * How often nodes report to the managers (`docker swarm update --dispatcher-heartbeat`): a node is
 * marked down after a few periods without one (5 s by default: down after about 12 s).
 */
export async function setDispatcherHeartbeat(swarm: TestSwarm, seconds: number): Promise<void> {
  await dockerOn(swarm.manager, "swarm", "update", "--dispatcher-heartbeat", `${seconds}s`);
}

/**
 * Kills a node's engine at once (SIGKILL, no clean shutdown): the machine is lost as far as the swarm
 * can tell. What it started may run on under containerd, out of anyone's reach; `remove` ends it.
 */
export async function killEngine(node: TestSwarmNode): Promise<void> {
  const pid = Number(await readFile(path.join(runDir(node.name), "docker.pid"), "utf8"));
  if (!pidAlive(pid)) throw new Error(`the engine ${node.name} is not running`);
  process.kill(pid, "SIGKILL");
  await until(() => !pidAlive(pid) || isZombie(pid), `the engine ${node.name} ends`, 30_000);
}

/** SIGTERM (the engine stops its containers on the way out), SIGKILL if it does not end. */
async function stopEngine(name: string): Promise<void> {
  const pid = Number(await readFile(path.join(runDir(name), "docker.pid"), "utf8").catch(() => "0"));
  if (!pidAlive(pid)) return;
  process.kill(pid, "SIGTERM");
  await until(() => !pidAlive(pid), `the engine ${name} stops`, 30_000).catch(() => {
    if (pidAlive(pid)) process.kill(pid, "SIGKILL");
  });
}

/** Whatever still runs in the node's namespace (containerd, shims) or its containers' cgroups. */
async function killEverythingOf(name: string): Promise<void> {
  const inNamespace = await run("ip", ["netns", "pids", name]).then(
    (r) => r.stdout.split("\n").filter(Boolean).map(Number),
    () => [] as number[],
  );
  const pids = new Set([...inNamespace, ...cgroupPids(name)]);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended already.
    }
  }
  await until(
    () => [...pids].every((pid) => !pidAlive(pid) || isZombie(pid)),
    `the processes of ${name} end`,
    30_000,
  );
}

function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return true;
  }
}

function cgroupDirs(name: string): string[] {
  const dirs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of safeReaddir(dir)) {
      const child = path.join(dir, entry);
      try {
        readdirSync(child);
        walk(child);
      } catch {
        // A file: cgroup dirs hold only files and child cgroups.
      }
    }
    dirs.push(dir);
  };
  for (const controller of cgroupControllers()) {
    const root = path.join(CGROUP_ROOT, controller, name);
    if (safeReaddir(root).length > 0) walk(root);
  }
  return dirs; // children before their parents
}

function cgroupPids(name: string): number[] {
  return cgroupDirs(name).flatMap((dir) => {
    try {
      return readFileSync(path.join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

async function removeCgroups(name: string): Promise<void> {
  for (const dir of cgroupDirs(name)) await rmdir(dir).catch(() => undefined);
}

/** Lazily unmounts every mount at or below the given paths, deepest first. */
async function unmountUnder(roots: string[]): Promise<void> {
  const mounts = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .filter((point) => roots.some((root) => point === root || point.startsWith(`${root}/`)))
    .sort((a, b) => b.length - a.length);
  for (const point of mounts) await run("umount", ["-l", point]).catch(() => undefined);
}
