import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABEL_INSTANCE } from "../docker/container-spec";
import { requireImage } from "../testing/harness";
import { outputOf } from "../testing/process-output";
import { until } from "../testing/until";
import { serviceName } from "./service-spec";
import type { SwarmDriver } from "./swarm-driver";
import { pinnedNode } from "./testing/instance-per-node";
import { newSwarmInstance, testSwarmDriver } from "./testing/test-driver";
import { startTestSwarm, type TestSwarm } from "./testing/test-swarm";

const image = requireImage();

describe("the Swarm driver on a swarm of a manager and a worker", () => {
  let swarm: TestSwarm;
  let driver: SwarmDriver;
  let onWorker: SwarmDriver;
  const instance = newSwarmInstance();

  /** The node a workspace's service is pinned to. */
  const nodeOf = (id: string) => pinnedNode(swarm, instance, id);

  beforeAll(async () => {
    swarm = await startTestSwarm([image]);
    driver = testSwarmDriver(swarm, instance);
    onWorker = testSwarmDriver(swarm, instance, ["node.role==worker"]);
    await driver.ready();
  });
  afterAll(async () => {
    await driver?.removeAll().catch(() => undefined);
    await swarm?.remove();
  });

  it("lets Swarm place workspaces on both nodes, and on the worker when a constraint asks for it", async () => {
    // Swarm spreads running tasks: with the first running, the second goes to the other node.
    await driver.create({ id: "first", image, egress: false });
    await driver.start("first");
    await driver.create({ id: "second", image, egress: false });
    await driver.start("second");
    const nodes = [await nodeOf("first"), await nodeOf("second")];
    expect(nodes.sort()).toEqual([swarm.manager.nodeId, swarm.worker.nodeId].sort());

    await onWorker.create({ id: "worker", image, egress: false });
    expect(await nodeOf("worker")).toBe(swarm.worker.nodeId);
    expect(await driver.state("worker")).toBe("stopped");
    expect((await driver.list()).map((w) => [w.id, w.state]).sort()).toEqual([
      ["first", "running"],
      ["second", "running"],
      ["worker", "stopped"],
    ]);
  });

  it("fills, runs, reads and types into a workspace on the worker through the worker's engine", async () => {
    // Before its first start (an import's clone): a job on the worker writes into its volume.
    const job = await driver.volumeJob("worker", {
      image,
      cmd: ["sh", "-c", "cat > /workspace/hello.txt"],
      network: "none",
    });
    expect((await outputOf(job, "hello from a job\n")).code).toBe(0);

    await driver.start("worker");
    expect(await driver.state("worker")).toBe("running");
    const workerContainers = await swarm.worker.docker.listContainers({
      filters: { label: [`${LABEL_INSTANCE}=${instance}`] },
    });
    expect(workerContainers.length).toBeGreaterThan(0);

    const read = await outputOf(await driver.exec("worker", ["cat", "/workspace/hello.txt"]));
    expect(read).toEqual({ code: 0, out: "hello from a job\n" });

    const tty = await driver.execTty("worker", ["/bin/bash", "--norc", "-i"], { cols: 80, rows: 24 });
    let screen = "";
    tty.stream.on("data", (c: Buffer) => {
      screen += c.toString();
    });
    tty.stream.write("echo typed-$((6*7)) > /workspace/typed.txt; echo done-$((1+1))\r");
    await until(() => screen.includes("done-2"), "the terminal answers");
    await tty.close();
    await driver.settle();
  });

  it("keeps a workspace's files across stop and start, on the node it was pinned to", async () => {
    await driver.stop("worker");
    expect(await driver.state("worker")).toBe("stopped");
    // Stopped, its files are still there for a job (an export).
    const exported = await driver.volumeJob("worker", {
      image,
      cmd: ["cat", "/workspace/typed.txt"],
      network: "none",
      readOnly: true,
    });
    expect(await outputOf(exported)).toEqual({ code: 0, out: "typed-42\n" });

    await driver.start("worker");
    expect(await nodeOf("worker")).toBe(swarm.worker.nodeId);
    const read = await outputOf(
      await driver.exec("worker", ["cat", "/workspace/hello.txt", "/workspace/typed.txt"]),
    );
    expect(read.out).toBe("hello from a job\ntyped-42\n");
  });

  it("tells the service when a workspace is stopped outside it", async () => {
    const abort = new AbortController();
    const events = driver.events(abort.signal)[Symbol.asyncIterator]();
    // As an operator would: `docker service scale <service>=0` on the manager.
    const service = swarm.manager.docker.getService(serviceName(instance, "worker"));
    const { Version, Spec } = await service.inspect();
    await service.update({
      _query: { version: Version.Index },
      _body: { ...Spec, Mode: { Replicated: { Replicas: 0 } } },
    } as never);
    for (let next = await events.next(); ; next = await events.next()) {
      if (next.done) throw new Error("the events ended");
      if (next.value.workspaceId === "worker" && next.value.state === "stopped") break;
    }
    abort.abort();
    await driver.start("worker");
  });

  it("removes a workspace's service, network and volumes", async () => {
    await driver.remove("worker");
    expect(await driver.state("worker")).toBe("missing");
    const volumes = await swarm.worker.docker.listVolumes({
      filters: { label: [`${LABEL_INSTANCE}=${instance}`] },
    });
    expect((volumes.Volumes ?? []).map((v) => v.Name).filter((n) => n.includes("-worker-"))).toEqual([]);
    const networks = await swarm.manager.docker.listNetworks({
      filters: { label: [`${LABEL_INSTANCE}=${instance}`] },
    });
    expect(networks.map((n) => n.Name).filter((n) => n.includes("-worker-"))).toEqual([]);
    expect((await driver.list()).map((w) => w.id).sort()).toEqual(["first", "second"]);
  });
});
