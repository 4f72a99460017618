// On a busy host one answer of the Docker engine can take minutes (issue 23): a create or start
// waiting for it must say what it waits for and for how long, not show a "Creating…" where nothing
// moves. The engine is slowed deterministically: a socket in front of it holds every container start
// (for the create, every look-up of a container too) until the test lets them through; the first
// container a create with a disk quota starts is its disk job, the first a start starts is the
// workspace's own.
import type { TRPCClient } from "@trpc/client";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningOf } from "../create-driver";
import { joinShare, startTestService, type TestService, trpcClient, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import type { AppRouter } from "../trpc/router";
import { dockerDriverOfConfig } from "./docker-driver-of-config";
import { stallingEngine } from "./testing/stalling-engine";

const CONTAINER_STARTS = /^POST \S*\/containers\/[^/]+\/start/;
/** Container starts, and the look-ups of a container's state, which a busy engine answers slowly too. */
const STARTS_AND_LOOKUPS = /^(POST \S*\/containers\/[^/]+\/start|GET \S*\/containers\/[^/]+\/json)/;

describe("a workspace created or started while the Docker engine is slow to start containers", () => {
  let engine: Awaited<ReturnType<typeof stallingEngine>> | undefined;
  let t: TestService | undefined;

  beforeAll(async () => {
    const slow = await stallingEngine(CONTAINER_STARTS);
    engine = slow;
    t = await startTestService(
      {
        driverOf: (config) =>
          dockerDriverOfConfig(config, hardeningOf(config), new Docker({ socketPath: slow.socketPath })),
      },
      { CODER_DISK_MB: "64" },
    );
  });
  afterAll(async () => {
    engine?.release();
    await t?.close();
    engine?.close();
  });

  function started() {
    if (!t || !engine) throw new Error("the service starts in beforeAll: use it inside a test");
    return { t, engine };
  }

  /**
   * Waits until `api` shows the workspace `status`, saying it waits for `waitingFor`, then until the
   * seconds it shows grow: the screen moves while the engine holds the answer.
   */
  async function showsGrowingWait(
    api: TRPCClient<AppRouter>,
    id: string,
    status: "creating" | "starting",
    waitingFor: string,
  ): Promise<void> {
    const waited = async () => {
      const workspace = await api.workspace.get.query({ workspaceId: id });
      expect(workspace.status).toBe(status);
      const said = /^(.*): (\d+) s$/.exec(workspace.detail ?? "");
      return said?.[1] === waitingFor ? Number(said[2]) : 0;
    };
    let first = 0;
    await until(
      async () => {
        first = await waited();
        return first > 0;
      },
      `the workspace says it is ${waitingFor}`,
      60_000,
    );
    await until(async () => (await waited()) > first, "the seconds it shows grow", 30_000);
  }

  it("says it waits for the engine to start its disk job and for how long, even while the engine is slow to look up containers, then is created once the engine answers", async () => {
    const { t, engine } = started();
    engine.stall(STARTS_AND_LOOKUPS);
    const { id } = await t.api.workspace.create.mutate({ name: "slow-create" });
    await showsGrowingWait(t.api, id, "creating", "waiting for the Docker engine to start the disk job");
    engine.release();
    const created = await waitForStatus(t.api, id, "running", 120_000);
    expect(created.detail).toBeUndefined();
  }, 240_000);

  it("says, to a guest watching too, that it waits for the engine to start its container, then runs", async () => {
    const { t, engine } = started();
    engine.release();
    const { id } = await t.api.workspace.create.mutate({ name: "slow-start" });
    await waitForStatus(t.api, id, "running", 120_000);
    const link = (await t.api.share.create.mutate({ workspaceId: id, role: "viewer" })).url;
    const guest = trpcClient(t.url, await joinShare(t.url, link, "Gus"));
    await t.api.workspace.stop.mutate({ workspaceId: id });
    engine.stall();
    await t.api.workspace.start.mutate({ workspaceId: id });
    await showsGrowingWait(
      guest,
      id,
      "starting",
      "waiting for the Docker engine to start the workspace's container",
    );
    engine.release();
    const running = await waitForStatus(guest, id, "running", 120_000);
    expect(running.detail).toBeUndefined();
  }, 240_000);
});
