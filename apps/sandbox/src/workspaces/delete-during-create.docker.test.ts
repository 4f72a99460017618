import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TRPCClient } from "@trpc/client";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { containerRuns, workspaceLeftovers } from "../docker/testing/engine-probes";
import {
  login,
  newInstance,
  removeInstance,
  requireImage,
  spawnService,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { until } from "../testing/until";
import type { AppRouter } from "../trpc/router";

/**
 * Makes a second workspace and waits until it runs: the deleted one, whose creation began earlier,
 * would have been finished by then had the delete not cancelled it.
 */
async function witnessCreation(api: TRPCClient<AppRouter>): Promise<string> {
  const { id } = await api.workspace.create.mutate({ name: "witness" });
  await waitForStatus(api, id, "running", 120_000);
  return id;
}

describe("a workspace deleted while it is being created", () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("is gone once the delete answers — no container, volume, disk image or loop device — and nothing comes back", async () => {
    t = await startTestService();
    const { id, status } = await t.api.workspace.create.mutate({ name: "short-lived" });
    expect(status).toBe("creating");
    expect((await t.api.workspace.get.query({ workspaceId: id })).status).toBe("creating");

    await t.api.workspace.delete.mutate({ workspaceId: id });
    expect(await t.api.workspace.list.query()).toEqual([]);
    expect(await workspaceLeftovers(t.instance, id)).toEqual([]);

    const witness = await witnessCreation(t.api);
    expect(await workspaceLeftovers(t.instance, id)).toEqual([]);
    expect((await t.api.workspace.list.query()).map((w) => w.id)).toEqual([witness]);
  });

  it("is gone too when deleted once its disk images exist, before its container does", async () => {
    t = await startTestService();
    const { id } = await t.api.workspace.create.mutate({ name: "half-made" });
    const instance = t.instance;
    await until(
      async () => (await workspaceLeftovers(instance, id)).some((thing) => thing.startsWith("disk image")),
      "the workspace's disk image exists",
    );

    await t.api.workspace.delete.mutate({ workspaceId: id });
    expect(await t.api.workspace.list.query()).toEqual([]);
    expect(await workspaceLeftovers(t.instance, id)).toEqual([]);

    await witnessCreation(t.api);
    expect(await workspaceLeftovers(t.instance, id)).toEqual([]);
  });

  it("is gone too when deleted while its daemon is starting, its container already running", async () => {
    t = await startTestService();
    const { id } = await t.api.workspace.create.mutate({ name: "almost-there" });
    const instance = t.instance;
    const api = t.api;
    await until(
      async () =>
        (await containerRuns(instance, id)) &&
        (await api.workspace.get.query({ workspaceId: id })).status === "creating",
      "the container runs while the workspace is still creating",
    );

    await t.api.workspace.delete.mutate({ workspaceId: id });
    expect(await t.api.workspace.list.query()).toEqual([]);
    expect(await workspaceLeftovers(t.instance, id)).toEqual([]);

    await witnessCreation(t.api);
    expect(await workspaceLeftovers(t.instance, id)).toEqual([]);
  });
});

describe("a service killed while it deletes a workspace it is creating", () => {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-delete-restart-"));
  const env = {
    CODER_IMAGE: requireImage(),
    CODER_DATA_DIR: dataDir,
    CODER_PORT: "0",
    CODER_INSTANCE: instance,
    CODER_MEMORY_MB: "512",
  };
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    await removeInstance(instance);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("leaves nothing of it once the next service has started", async () => {
    const first = await spawnService(env);
    child = first.child;
    const cookie = await login(first.url, first.token ?? "");
    const api = trpcClient(first.url, cookie);
    const { id } = await api.workspace.create.mutate({ name: "cut-short" });
    // Something of it exists on the engine: the creation is under way.
    await until(
      async () => (await workspaceLeftovers(instance, id)).length > 0,
      "the creation makes something",
    );

    const deleting = api.workspace.delete.mutate({ workspaceId: id }).catch(() => undefined);
    // Killed as soon as the delete is under way (or, at the latest, has answered).
    await until(
      () =>
        api.workspace.get.query({ workspaceId: id }).then(
          (w) => w.status === "stopping",
          () => true,
        ),
      "the delete is under way",
    );
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    await deleting;

    const second = await spawnService(env);
    child = second.child;
    const api2 = trpcClient(second.url, await login(second.url, first.token ?? ""));
    await until(
      async () =>
        (await api2.workspace.list.query()).length === 0 &&
        (await workspaceLeftovers(instance, id)).length === 0,
      "the next service removes what the cut-short creation made",
      60_000,
    );
    await witnessCreation(api2);
    expect(await workspaceLeftovers(instance, id)).toEqual([]);
  });
});
