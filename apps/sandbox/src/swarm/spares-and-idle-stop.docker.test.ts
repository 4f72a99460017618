// Warm pools and idle stop with one service instance per node of a swarm: each instance keeps spare
// workspaces on its own node (a create through it then runs where its own engine reaches it), and
// a workspace used through one instance but running on the other's node is stopped for idleness by
// exactly one of them and comes back through the instance it is used through.
import type { Workspace } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABEL_INSTANCE, LABEL_SPARE, LABEL_WORKSPACE } from "../docker/container-spec";
import { openTerminal, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { type InstancePerNode, pinnedNode, startInstancePerNode } from "./testing/instance-per-node";
import { dockerOn, type TestSwarmNode } from "./testing/test-swarm";

const IDLE_SECONDS = 5;

describe("warm pools and idle stop with one instance per node of a swarm", () => {
  let nodes: InstancePerNode;
  const log: string[] = [];

  beforeAll(async () => {
    nodes = await startInstancePerNode({
      // Both nodes take workspaces: each instance keeps one spare on its own.
      env: { CODER_WARM_POOL: "1", CODER_IDLE_STOP_SECONDS: String(IDLE_SECONDS) },
      log: (line) => log.push(line),
    });
  }, 300_000);
  afterAll(async () => {
    await nodes?.close();
  }, 300_000);

  /** The spares listed in the pool, ready to be claimed. */
  async function pooled(): Promise<string[]> {
    const rows = await nodes.onManager.service.db.selectFrom("warm_pool").select("id").execute();
    return rows.map((r) => r.id);
  }

  /** The pooled spares whose container runs on `node`, as its own engine lists them. */
  async function pooledOn(node: TestSwarmNode): Promise<string[]> {
    const containers = await node.docker.listContainers({
      filters: { label: [`${LABEL_SPARE}=true`, `${LABEL_INSTANCE}=${nodes.place.instance}`] },
    });
    const ready = await pooled();
    return containers.map((c) => c.Labels[LABEL_WORKSPACE] ?? "").filter((id) => ready.includes(id));
  }

  async function listed(id: string): Promise<Workspace | undefined> {
    return (await nodes.onManager.api.workspace.list.query()).find((w) => w.id === id);
  }

  /** The workspace the worker's instance was handed: on the worker. */
  let handedOver: string | undefined;

  it("keeps each instance's spare workspace on its own node", async () => {
    const { swarm } = nodes;
    await until(
      async () => (await pooledOn(swarm.manager)).length === 1 && (await pooledOn(swarm.worker)).length === 1,
      "a spare is ready on each node",
      240_000,
    );
    expect(await pooled()).toHaveLength(2);
  }, 300_000);

  it("hands a create through the instance on the worker the worker's spare at once, never the manager's", async () => {
    const { swarm, onWorker, place } = nodes;
    const [workerSpare] = await pooledOn(swarm.worker);
    const [managerSpare] = await pooledOn(swarm.manager);

    const handed = await onWorker.api.workspace.create.mutate({ name: "handed-over" });
    expect(handed.status).toBe("running");
    expect(handed.id).toBe(workerSpare);
    expect(await pinnedNode(swarm, place.instance, handed.id)).toBe(swarm.worker.nodeId);
    handedOver = handed.id;
    // At once again, before the worker's pool made another: the manager's spare is not for it.
    const next = await onWorker.api.workspace.create.mutate({ name: "next" });
    expect(next.id).not.toBe(managerSpare);
    expect(await pooled()).toContain(managerSpare);

    // Its terminal runs through the worker's own engine.
    const terminal = await openTerminal(onWorker.service.url, onWorker.cookie, handed.id, "main");
    terminal.send("echo spare-$((40+2))\r");
    await terminal.waitFor(/spare-42/, 30_000);
    terminal.ws.close();
  }, 240_000);

  it("stops a workspace on the worker used through the manager's instance once for idleness, and resumes it there with its files", async () => {
    const { swarm, onManager, place } = nodes;
    const id = handedOver;
    if (!id) throw new Error("no workspace was handed over on the worker (the test before failed)");
    await onManager.api.files.write.mutate({ workspaceId: id, path: "notes.txt", content: "kept\n" });
    const terminal = await openTerminal(onManager.service.url, onManager.cookie, id, "main");
    terminal.send("echo used-$((40+2))\r");
    await terminal.waitFor(/used-42/, 30_000);
    terminal.ws.close();

    await until(async () => (await listed(id))?.status === "stopped", "the idle stop stopped it", 120_000);
    expect((await listed(id))?.idleStoppedAt).toEqual(expect.any(String));
    // Both instances look at it; one stopped it.
    expect(log.filter((line) => line.startsWith(`workspace ${id}: stopping it`))).toHaveLength(1);

    await onManager.api.workspace.resume.mutate({ workspaceId: id });
    await waitForStatus(onManager.api, id, "running", 120_000);
    expect(await pinnedNode(swarm, place.instance, id)).toBe(swarm.worker.nodeId);
    expect((await onManager.api.files.read.query({ workspaceId: id, path: "notes.txt" })).content).toBe(
      "kept\n",
    );
    const again = await openTerminal(onManager.service.url, onManager.cookie, id, "main");
    again.send("echo back-$((40+2))\r");
    await again.waitFor(/back-42/, 30_000);
    again.ws.close();
  }, 300_000);

  it("makes no spares on an instance whose node does not meet CODER_SWARM_CONSTRAINTS, and says so once", async () => {
    const { swarm, place } = nodes;
    const outside = await place.start({
      DOCKER_HOST: `unix://${swarm.manager.socket}`,
      CODER_SWARM_CONSTRAINTS: "node.role==worker",
    });
    try {
      const told = log.filter((line) =>
        line.startsWith("warm pool: this instance makes no spare workspaces"),
      );
      expect(told).toHaveLength(1);
      expect(told[0]).toContain("node.role==worker");
      expect(await outside.service.workspaces.pool.count()).toBe(0);
      // A create through it takes the cold path to where the constraints allow.
      const made = await outside.api.workspace.create.mutate({ name: "placed-by-constraints" });
      expect(made.status).toBe("creating");
      await waitForStatus(outside.api, made.id, "running", 120_000);
      expect(await pinnedNode(swarm, place.instance, made.id)).toBe(swarm.worker.nodeId);
    } finally {
      await place.stop(outside.service);
    }
  }, 240_000);

  it("starts keeping a spare once its node is labelled to meet the constraints, and retires it once it no longer does", async () => {
    const { swarm, place } = nodes;
    const label = "coder-spares-test";
    const outside = await place.start({
      DOCKER_HOST: `unix://${swarm.manager.socket}`,
      CODER_SWARM_CONSTRAINTS: `node.labels.${label}==yes`,
      CODER_SWARM_RECHECK_SECONDS: "1",
    });
    const spares = () => outside.service.workspaces.pool.count();
    /** Its spare: the listed one whose Swarm service is placed by its constraint (others keep theirs too). */
    const itsSpare = async () => {
      const services = await swarm.manager.docker.listServices({
        filters: { label: [`${LABEL_SPARE}=true`, `${LABEL_INSTANCE}=${place.instance}`] },
      });
      const listed = new Set(await pooled());
      return services.find(
        (s) =>
          listed.has(s.Spec?.Labels?.[LABEL_WORKSPACE] ?? "") &&
          s.Spec?.TaskTemplate?.Placement?.Constraints?.includes(`node.labels.${label}==yes`),
      );
    };
    try {
      expect(await spares()).toBe(0);
      await dockerOn(swarm.manager, "node", "update", "--label-add", `${label}=yes`, swarm.manager.nodeId);
      await until(
        async () => (await spares()) === 1,
        "a spare is made once the node meets the constraint",
        120_000,
      );
      const spare = await itsSpare();
      expect(spare).toBeDefined();

      await dockerOn(swarm.manager, "node", "update", "--label-rm", label, swarm.manager.nodeId);
      await until(
        async () => (await spares()) === 0,
        "the spare is retired once the node no longer meets it",
        60_000,
      );
      await until(
        async () => !(await swarm.manager.docker.listServices()).some((s) => s.ID === spare?.ID),
        "the retired spare's service is removed",
        60_000,
      );
      expect(log.filter((line) => line.includes("takes spare workspaces again"))).toHaveLength(1);
    } finally {
      await dockerOn(swarm.manager, "node", "update", "--label-rm", label, swarm.manager.nodeId).catch(
        () => undefined,
      );
      await place.stop(outside.service);
    }
  }, 300_000);
});
