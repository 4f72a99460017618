// What a workspace gets from the node Swarm placed it on: its disk quota, made there, and gVisor
// only where the node's engine really runs it.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateVolumeName, volumeName } from "../docker/container-spec";
import { LABEL_DISK } from "../docker/disk-images";
import { requireImage } from "../testing/harness";
import { outputOf } from "../testing/process-output";
import { serviceName } from "./service-spec";
import type { SwarmDriver } from "./swarm-driver";
import { newSwarmInstance, testSwarmDriver } from "./testing/test-driver";
import { dockerOn, startTestSwarm, type TestSwarm } from "./testing/test-swarm";

const image = requireImage();
const MB = 1024 * 1024;

describe("what a workspace gets from its node", () => {
  let swarm: TestSwarm;
  const drivers: SwarmDriver[] = [];

  beforeAll(async () => {
    swarm = await startTestSwarm([image]);
  });
  afterAll(async () => {
    for (const driver of drivers) await driver.removeAll().catch(() => undefined);
    await swarm?.remove();
  });

  it("a workspace on the worker gets its disk quota there", async () => {
    const instance = newSwarmInstance();
    const driver = testSwarmDriver(swarm, instance, ["node.role==worker"], {
      disk: { workspaceMb: 64, stateMb: 16, toolImage: image },
    });
    drivers.push(driver);
    await driver.create({ id: "bounded", image, egress: false });
    await driver.start("bounded");
    const sh = async (script: string) => outputOf(await driver.exec("bounded", ["sh", "-c", script]));

    // An ext4 filesystem of 64 MB, the workspace user's, which a bigger file does not fit.
    expect((await sh("stat -c %U /workspace")).out.trim()).toBe("coder");
    const size = Number((await sh("echo $(( $(stat -f -c '%b * %S' /workspace) ))")).out.trim());
    expect(size).toBeGreaterThan(50 * MB);
    expect(size).toBeLessThanOrEqual(64 * MB);
    const full = await outputOf(
      await driver.exec("bounded", ["sh", "-c", "head -c 80M /dev/zero > /workspace/big"]),
    );
    expect(full.code).not.toBe(0);
    expect(Number((await sh("stat -c %s /workspace/big")).out)).toBeLessThan(64 * MB);

    // Its images are files on the worker's engine, not the manager's.
    const workerRoot = ((await swarm.worker.docker.info()) as { DockerRootDir: string }).DockerRootDir;
    const images: string[] = [];
    for (const volume of [volumeName(instance, "bounded"), stateVolumeName(instance, "bounded")]) {
      const image = (await swarm.worker.docker.getVolume(volume).inspect()).Labels?.[LABEL_DISK] ?? "";
      expect(image.startsWith(`${workerRoot}/`)).toBe(true);
      expect(existsSync(image)).toBe(true);
      images.push(image);
    }
    expect((await swarm.manager.docker.listVolumes()).Volumes?.map((v) => v.Name)).not.toContain(
      volumeName(instance, "bounded"),
    );

    // Stopped and started again, its files are still on the same images.
    await sh("rm /workspace/big; echo kept > /workspace/kept.txt");
    await driver.stop("bounded");
    await driver.start("bounded");
    expect((await sh("cat /workspace/kept.txt")).out).toBe("kept\n");

    await driver.remove("bounded");
    for (const image of images) expect(existsSync(image)).toBe(false);
  });

  it("a node labelled for gVisor whose engine runs runc gets no workspace to run", async () => {
    await dockerOn(
      swarm.manager,
      "node",
      "update",
      "--label-add",
      "coder.runtime=runsc",
      swarm.worker.nodeId,
    );
    const instance = newSwarmInstance();
    const driver = testSwarmDriver(swarm, instance, [], {
      runtime: "runsc",
      gvisorConstraint: "node.labels.coder.runtime==runsc",
    });
    drivers.push(driver);
    await expect(driver.create({ id: "gvisor", image, egress: false })).rejects.toThrow(
      `the machine it was placed on (node ${swarm.worker.nodeId.slice(0, 12)}) runs containers under runc, not gVisor`,
    );
    // Placed by the label (never on the unlabelled manager), and stopped again at once.
    const tasks = await swarm.manager.docker.listTasks({
      filters: { service: [serviceName(instance, "gvisor")] },
    });
    expect(tasks.map((t) => t.NodeID)).toEqual([swarm.worker.nodeId]);
    const service = await swarm.manager.docker.getService(serviceName(instance, "gvisor")).inspect();
    expect(service.Spec.Mode.Replicated.Replicas).toBe(0);
  });
});
