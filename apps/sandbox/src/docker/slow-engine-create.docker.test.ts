// On a busy host one answer of the Docker engine can take minutes (issue 23): a create waiting for
// it must say what it waits for and for how long, not show a "Creating…" where nothing moves. The
// engine is slowed deterministically: a socket in front of it holds every container start until the
// test lets them through, and the first container a create with a disk quota starts is its disk job.
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningOf } from "../create-driver";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { dockerDriverOfConfig } from "./docker-driver-of-config";
import { stallingEngine } from "./testing/stalling-engine";

/** What the workspace says while its disk job waits for the engine, with the seconds waited so far. */
const WAITING_FOR_DISK_JOB = /^waiting for the Docker engine to start the disk job: (\d+) s$/;

describe("a workspace created while the Docker engine is slow to start containers", () => {
  let engine: Awaited<ReturnType<typeof stallingEngine>> | undefined;
  let t: TestService | undefined;

  beforeAll(async () => {
    const slow = await stallingEngine(/^POST \S*\/containers\/[^/]+\/start/);
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

  it("says it waits for the engine to start its disk job and for how long, then is created once the engine answers", async () => {
    if (!t || !engine) throw new Error("the service starts in beforeAll");
    const { api } = t;
    const { id } = await api.workspace.create.mutate({ name: "slow-engine" });
    /** The seconds waited so far that the workspace shows, if it shows them. */
    const waited = async () => {
      const workspace = await api.workspace.get.query({ workspaceId: id });
      expect(workspace.status).toBe("creating");
      const match = WAITING_FOR_DISK_JOB.exec(workspace.detail ?? "");
      return match ? Number(match[1]) : undefined;
    };
    let first = 0;
    await until(
      async () => {
        first = (await waited()) ?? 0;
        return first > 0;
      },
      "the workspace says it waits for the engine to start its disk job",
      60_000,
    );
    expect(engine.held()).toBeGreaterThan(0);
    await until(
      async () => ((await waited()) ?? 0) > first,
      "the seconds waited that the workspace shows grow",
      30_000,
    );
    engine.release();
    const created = await waitForStatus(api, id, "running", 120_000);
    expect(created.detail).toBeUndefined();
  }, 240_000);
});
