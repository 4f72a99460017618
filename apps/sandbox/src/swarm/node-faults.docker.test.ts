// What people see when a machine of the swarm goes away under their workspace: an operator drains it
// (`docker node update --availability drain`), or its engine dies. The real service runs against a
// real swarm of two engines, with a driver that reaches both; the IDE's view is the service's answer.
import { AccessCloseCode, type Workspace } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { requireImage, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { outputOf } from "../testing/process-output";
import { until } from "../testing/until";
import type { SwarmDriver } from "./swarm-driver";
import { newSwarmInstance, testSwarmDriver } from "./testing/test-driver";
import {
  killEngine,
  setAvailability,
  setDispatcherHeartbeat,
  startTestSwarm,
  type TestSwarm,
} from "./testing/test-swarm";

const image = requireImage();

describe("a swarm's machines going away under workspaces", () => {
  let swarm: TestSwarm;
  let driver: SwarmDriver;
  let t: TestService;
  const instance = newSwarmInstance();

  beforeAll(async () => {
    swarm = await startTestSwarm([image]);
    // A lost node is marked down after a few missed heartbeats: 1 s each instead of 5 s.
    await setDispatcherHeartbeat(swarm, 1);
    // Every workspace of this service on the worker, the machine the tests take away.
    driver = testSwarmDriver(swarm, instance, ["node.role==worker"]);
    t = await startTestService({ driver }, { CODER_INSTANCE: instance });
  });
  afterAll(async () => {
    await t?.close();
    await driver?.removeAll().catch(() => undefined);
    await swarm?.remove();
  });

  const shown = (id: string): Promise<Workspace> => t.api.workspace.get.query({ workspaceId: id });

  /** Polls the workspace as the IDE shows it until `ok` holds; returns what it showed then. */
  async function shownOnce(id: string, ok: (w: Workspace) => boolean, what: string, ms = 60_000) {
    let last: Workspace | undefined;
    await until(
      async () => {
        last = await shown(id);
        return ok(last);
      },
      what,
      ms,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; it shows ${JSON.stringify(last)}`);
    });
    return last as Workspace;
  }

  it("draining the worker stops its workspaces and says why", async () => {
    const { id } = await t.api.workspace.create.mutate({ name: "drained" });
    await waitForStatus(t.api, id, "running", 120_000);
    await t.api.files.write.mutate({ workspaceId: id, path: "kept.txt", content: "still here\n" });

    await setAvailability(swarm, swarm.worker, "drain");
    const drained = await shownOnce(
      id,
      (w) => w.status === "stopped" && w.detail !== undefined,
      "the workspace shows it was stopped with a reason",
    );
    expect(drained.detail).toBe(
      `stopped because the machine it runs on (node ${swarm.worker.nodeId.slice(0, 12)}) is being drained; ask an operator to make it active again`,
    );
    expect((await t.api.workspace.list.query()).find((w) => w.id === id)?.detail).toBe(drained.detail);
    // Its files can still be taken out (an export is a plain container on the node, not a task).
    const exported = await driver.volumeJob(id, {
      image,
      cmd: ["cat", "/workspace/kept.txt"],
      network: "none",
      readOnly: true,
    });
    expect(await outputOf(exported)).toEqual({ code: 0, out: "still here\n" });

    // Starting it again while the machine is drained says the same at once, instead of waiting for
    // a place Swarm cannot find.
    const asked = Date.now();
    await t.api.workspace.start.mutate({ workspaceId: id });
    const refused = await shownOnce(id, (w) => w.status === "error", "the start is refused");
    expect(refused.detail).toBe(drained.detail);
    expect(Date.now() - asked).toBeLessThan(30_000);

    // Active again: Swarm starts it where its files are, and the IDE shows it running.
    await setAvailability(swarm, swarm.worker, "active");
    await shownOnce(id, (w) => w.status === "running" && w.detail === undefined, "it runs again", 120_000);
    await until(
      async () =>
        (await t.api.files.read.query({ workspaceId: id, path: "kept.txt" }).catch(() => undefined))
          ?.content === "still here\n",
      "its files are read again",
      60_000,
    );
  });

  it("a workspace whose node is lost says the node is unavailable instead of hanging", async () => {
    const { id } = (await t.api.workspace.list.query())[0] as Workspace;
    expect((await shown(id)).status).toBe("running");
    const unavailable = `node unavailable: the machine it runs on (node ${swarm.worker.nodeId.slice(0, 12)}) does not answer the swarm; it can start again once that machine is back`;

    await killEngine(swarm.worker);
    // At once, before the swarm has missed enough heartbeats to notice (its engine does not answer)
    // or after (the swarm says so): a command and a terminal fail fast, with the same words.
    const tried = Date.now();
    await expect(driver.exec(id, ["true"])).rejects.toThrow(unavailable);
    await expect(driver.execTty(id, ["bash"], { cols: 80, rows: 24 })).rejects.toThrow(unavailable);
    expect(Date.now() - tried).toBeLessThan(10_000);

    const lost = await shownOnce(
      id,
      (w) => w.status === "stopped" && w.detail !== undefined,
      "the workspace shows its node is unavailable",
    );
    expect(lost.detail).toBe(unavailable);
    // Its terminal is refused at once as not running (the IDE shows the reason above it).
    const terminal = new WebSocket(`${t.url.replace("http", "ws")}/terminal/${id}/main`, {
      headers: { cookie: t.cookie, origin: t.url },
    });
    const closed = await new Promise<number>((resolve) => terminal.once("close", resolve));
    expect(closed).toBe(AccessCloseCode.NotRunning);

    // And a start says so instead of waiting for the machine.
    await t.api.workspace.start.mutate({ workspaceId: id });
    const refused = await shownOnce(id, (w) => w.status === "error", "the start is refused", 30_000);
    expect(refused.detail).toBe(unavailable);
  });
});
