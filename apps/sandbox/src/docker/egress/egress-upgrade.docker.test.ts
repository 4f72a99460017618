import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import {
  login,
  newInstance,
  removeInstance,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "../../testing/harness";
import { containerName } from "../container-spec";
import { DEFAULT_BRIDGE, egressNames } from "./names";

async function networksOf(docker: Docker, name: string): Promise<string[]> {
  return Object.keys((await docker.getContainer(name).inspect()).NetworkSettings.Networks ?? {});
}

describe("egress workspaces made before the egress network existed", () => {
  const docker = new Docker();
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-egress-upgrade-"));
  const env = {
    CODER_IMAGE: requireImage(),
    CODER_DATA_DIR: dataDir,
    CODER_PORT: "0",
    CODER_INSTANCE: instance,
  };
  const egress = egressNames(instance).network;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    await removeInstance(instance);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("leave Docker's default bridge for the egress network when the service starts or starts them", async () => {
    const first = await spawnService(env);
    child = first.child;
    const api = trpcClient(first.url, await login(first.url, first.token ?? ""));
    const running = (await api.workspace.create.mutate({ name: "running", egress: true })).id;
    const stopped = (await api.workspace.create.mutate({ name: "stopped", egress: true })).id;
    await waitForStatus(api, running, "running");
    await waitForStatus(api, stopped, "running");
    await api.workspace.stop.mutate({ workspaceId: stopped });
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));

    // What an older version left behind: both containers on Docker's default bridge.
    for (const id of [running, stopped]) {
      const name = containerName(instance, id);
      for (const network of await networksOf(docker, name)) {
        if (network !== DEFAULT_BRIDGE)
          await docker.getNetwork(network).disconnect({ Container: name, Force: true });
      }
      if (!(await networksOf(docker, name)).includes(DEFAULT_BRIDGE)) {
        await docker.getNetwork(DEFAULT_BRIDGE).connect({ Container: name });
      }
      expect(await networksOf(docker, name)).toEqual([DEFAULT_BRIDGE]);
    }

    const second = await spawnService(env);
    child = second.child;
    const api2 = trpcClient(second.url, await login(second.url, first.token ?? ""));
    // Moved before the service answers: a running one never stays on the default bridge.
    expect(await networksOf(docker, containerName(instance, running))).toEqual([egress]);
    expect((await api2.workspace.get.query({ workspaceId: running })).status).toBe("running");
    await api2.workspace.start.mutate({ workspaceId: stopped });
    await waitForStatus(api2, stopped, "running");
    expect(await networksOf(docker, containerName(instance, stopped))).toEqual([egress]);
  });
});
