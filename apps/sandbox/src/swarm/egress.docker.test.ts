import { execFile } from "node:child_process";
import { createServer, type Server } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABEL_WORKSPACE } from "../docker/container-spec";
import { CONNECT_PROBE, connectedTargets } from "../testing/connect-probe";
import { requireImage } from "../testing/harness";
import { outputOf } from "../testing/process-output";
import { until } from "../testing/until";
import { loadClusterTls } from "./node-channel/cluster-tls";
import { NodeChannelClient } from "./node-channel/node-channel-client";
import { NodeChannelServer } from "./node-channel/node-channel-server";
import { networkName } from "./service-spec";
import type { SwarmDriver } from "./swarm-driver";
import { swarmEgressNames, swarmEgressNetworkName } from "./swarm-egress";
import {
  type InternetStandIn,
  LISTENER_PORT,
  PRIVATE_ADDRESS,
  PUBLIC_ADDRESS,
  startInternetStandIn,
} from "./testing/internet-stand-in";
import { newSwarmInstance, testSwarmDriver } from "./testing/test-driver";
import { startTestSwarm, type TestSwarm } from "./testing/test-swarm";

const image = requireImage();
const run = promisify(execFile);

/** Prints the body of one HTTP GET (the image has no curl). */
const GET = `import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode(), end="")`;

const at = (address: string, port = LISTENER_PORT) => `${address}:${port}`;

describe("an egress workspace on a swarm", () => {
  let swarm: TestSwarm;
  let standIn: InternetStandIn;
  let driver: SwarmDriver;
  /** On this machine, the host behind the nodes. */
  let host: Server;
  const instance = newSwarmInstance();
  const [online, neighbour, sealed] = ["online", "neighbour", "sealed"];

  /** Which targets the workspace opened a TCP connection to. */
  async function reachable(id: string, targets: string[]): Promise<string[]> {
    const { out } = await outputOf(await driver.exec(id, ["python3", "-c", CONNECT_PROBE, ...targets]));
    expect(out.trim().split("\n"), out).toHaveLength(targets.length);
    return connectedTargets(out);
  }

  /** Which targets the worker node itself reaches: each is there, so a refusal above is the rules'. */
  async function workerReaches(targets: string[]): Promise<string[]> {
    const { stdout } = await run("nsenter", [
      `--net=/run/netns/${swarm.worker.name}`,
      "python3",
      "-c",
      CONNECT_PROBE,
      ...targets,
    ]);
    return connectedTargets(stdout);
  }

  /** The workspace's address on its network, read on the worker's engine. */
  async function addressOf(id: string): Promise<string> {
    const [container] = await swarm.worker.docker.listContainers({
      filters: { label: [`${LABEL_WORKSPACE}=${id}`] },
    });
    const info = await swarm.worker.docker.getContainer(container?.Id ?? "").inspect();
    const [network] = Object.values(info.NetworkSettings.Networks);
    return network?.IPAddress ?? "";
  }

  async function serveInside(id: string): Promise<string> {
    await outputOf(
      await driver.exec(id, ["sh", "-c", `nohup python3 -m http.server ${LISTENER_PORT} >/dev/null 2>&1 &`]),
    );
    await until(async () => (await reachable(id, [at("127.0.0.1")])).length === 1, `${id} listens`);
    return addressOf(id);
  }

  async function egressChainsOnWorker(): Promise<string> {
    const { stdout } = await run("nsenter", [
      `--net=/run/netns/${swarm.worker.name}`,
      "sh",
      "-c",
      "iptables-nft-save; iptables-legacy-save",
    ]);
    return stdout
      .split("\n")
      .filter((l) => l.includes("CODER-EGRESS-"))
      .join("\n");
  }

  beforeAll(async () => {
    host = createServer((s) => s.on("error", () => undefined).end("host\n"));
    await new Promise<void>((resolve) => host.listen(0, "0.0.0.0", resolve));
    swarm = await startTestSwarm([image]);
    standIn = await startInternetStandIn(swarm);
    driver = testSwarmDriver(swarm, instance, ["node.role==worker"], {
      egress: { helperImage: image, allow: [] },
    });
    await Promise.all(
      [online, neighbour, sealed].map(async (id) => {
        await driver.create({ id, image, egress: id !== sealed });
        await driver.start(id);
      }),
    );
  });
  afterAll(async () => {
    await driver?.removeAll().catch(() => undefined);
    await standIn?.remove();
    await swarm?.remove();
    host?.close();
  });

  it("reaches a public address on the internet through its node", async () => {
    expect(await reachable(online, [at(PUBLIC_ADDRESS)])).toEqual([at(PUBLIC_ADDRESS)]);
    const { out } = await outputOf(
      await driver.exec(online, ["python3", "-c", GET, `http://${at(PUBLIC_ADDRESS)}/`]),
    );
    expect(out).toBe(`hello from ${PUBLIC_ADDRESS}\n`);
  });

  it("cannot reach a machine on a private network", async () => {
    expect(await workerReaches([at(PRIVATE_ADDRESS)])).toEqual([at(PRIVATE_ADDRESS)]);
    expect(await reachable(online, [at(PRIVATE_ADDRESS)])).toEqual([]);
  });

  it("cannot reach its own node: not its engine's swarm port, not its addresses, not the host behind it", async () => {
    const { worker } = swarm;
    const targets = [
      at(worker.address, 7946),
      at(worker.address),
      at(worker.linkAddress),
      at(worker.hostAddress, (host.address() as { port: number }).port),
      at((await addressOf(online)).replace(/\.\d+$/, ".1")),
    ];
    expect(await workerReaches(targets)).toEqual(targets);
    expect(await reachable(online, targets)).toEqual([]);
  });

  it("cannot reach the other node of the swarm, nor its engine's API", async () => {
    const { manager } = swarm;
    const targets = [at(manager.address, 2377), at(manager.address), at(manager.address, 2376)];
    expect(await workerReaches(targets)).toEqual(targets);
    expect(await reachable(online, targets)).toEqual([]);
  });

  it("cannot reach another egress workspace on the same node, nor one without egress", async () => {
    const [next, plain] = [await serveInside(neighbour), await serveInside(sealed)];
    expect(await reachable(online, [at(next), at(plain)])).toEqual([]);
  });

  it("runs a job with egress beside it (a git clone) under the same rules on its node", async () => {
    const job = await driver.volumeJob(online, {
      image,
      cmd: [
        "python3",
        "-c",
        CONNECT_PROBE,
        at(PUBLIC_ADDRESS),
        at(PRIVATE_ADDRESS),
        at(swarm.worker.address),
      ],
      network: "egress",
    });
    expect(connectedTargets((await outputOf(job)).out)).toEqual([at(PUBLIC_ADDRESS)]);
  });

  it("has IPv6 switched off", async () => {
    const { out } = await outputOf(
      await driver.exec(online, ["cat", "/proc/sys/net/ipv6/conf/all/disable_ipv6"]),
    );
    expect(out).toBe("1\n");
  });

  it("leaves a workspace without egress reaching nothing", async () => {
    expect(
      await reachable(sealed, [at(PUBLIC_ADDRESS), at(PRIVATE_ADDRESS), at(swarm.worker.address)]),
    ).toEqual([]);
  });

  it("has its node's rules set by the instance on that node when another machine's instance creates it", async () => {
    const cluster = loadClusterTls(swarm.tls);
    const egress = { helperImage: image, allow: [] };
    const other = newSwarmInstance();
    const onWorker = testSwarmDriver(swarm, other, [], { egress, on: swarm.worker });
    await onWorker.ready();
    const channel = await NodeChannelServer.listen(cluster, 0, onWorker, () => undefined);
    const address = { host: "127.0.0.1", port: channel.port };
    const onManager = testSwarmDriver(swarm, other, ["node.role==worker"], {
      egress,
      on: swarm.manager,
      routes: { to: async (node) => new NodeChannelClient(address, cluster, node) },
    });
    try {
      await onManager.ready();
      await onManager.create({ id: "remote", image, egress: true });
      await onManager.start("remote");
      const network = await swarm.manager.docker.getNetwork(swarmEgressNetworkName(other)).inspect();
      expect(await egressChainsOnWorker()).toContain(swarmEgressNames(other, network.Id).forwardChain);
      const probe = await onManager.exec("remote", [
        "python3",
        "-c",
        CONNECT_PROBE,
        at(PUBLIC_ADDRESS),
        at(PRIVATE_ADDRESS),
      ]);
      expect(connectedTargets((await outputOf(probe)).out)).toEqual([at(PUBLIC_ADDRESS)]);
    } finally {
      await onManager.removeAll();
      await onWorker.removeAll();
      await channel.close();
    }
  });

  it("takes its own network away when it is removed, and the egress network and its rules with the instance", async () => {
    const networks = async () => (await swarm.manager.docker.listNetworks()).map((n) => n.Name);
    expect(await networks()).toContain(networkName(instance, online));
    expect(await egressChainsOnWorker()).not.toBe("");
    await driver.remove(online);
    expect(await networks()).not.toContain(networkName(instance, online));
    await driver.removeAll();
    expect(await networks()).not.toContain(swarmEgressNetworkName(instance));
    expect(await egressChainsOnWorker()).toBe("");
  });
});
