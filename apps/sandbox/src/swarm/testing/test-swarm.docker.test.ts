import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { startTestSwarm, type TestSwarm } from "./test-swarm";

const image = process.env.CODER_IMAGE ?? "coder-workspace:latest";

function namespaces(): string[] {
  return execFileSync("ip", ["netns", "list"], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.split(" ")[0] ?? "")
    .filter(Boolean);
}

describe("test swarm", () => {
  let swarm: TestSwarm | undefined;
  afterAll(async () => {
    await swarm?.remove();
  });

  it("forms a swarm of a manager and a worker in namespaces and removes everything afterwards", async () => {
    const main = new Docker();
    const mainBefore = await main.info();
    swarm = await startTestSwarm([image]);
    const { manager, worker } = swarm;

    const nodes = await manager.docker.listNodes();
    expect(nodes.map((n) => [n.ID, n.Spec?.Role, n.Status?.State]).sort()).toEqual(
      [
        [manager.nodeId, "manager", "ready"],
        [worker.nodeId, "worker", "ready"],
      ].sort(),
    );
    for (const node of [manager, worker]) {
      await node.docker.getImage(image).inspect();
      expect(namespaces()).toContain(node.name);
    }
    // The main engine is no part of it.
    const mainInfo = (await main.info()) as { Swarm: { LocalNodeState: string } };
    expect(mainInfo.Swarm.LocalNodeState).toBe(mainBefore.Swarm.LocalNodeState);

    await swarm.remove();
    swarm = undefined;
    for (const node of [manager, worker]) {
      expect(namespaces()).not.toContain(node.name);
      expect(existsSync(node.socket)).toBe(false);
      expect(existsSync(`/var/lib/coder-test-swarm/${node.name}`)).toBe(false);
      expect(existsSync(`/sys/fs/cgroup/memory/${node.name}`)).toBe(false);
    }
    const links = execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" });
    expect(links).not.toContain(`csw${process.pid}h`);
    expect(((await main.info()) as { Swarm: { LocalNodeState: string } }).Swarm.LocalNodeState).toBe(
      "inactive",
    );
  });
});
