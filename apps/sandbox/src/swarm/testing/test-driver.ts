// Test support: a Swarm driver on the test swarm.
import { randomBytes } from "node:crypto";
import { SwarmDriver, type SwarmDriverOptions } from "../swarm-driver";
import type { TestSwarm } from "./test-swarm";

export function newSwarmInstance(): string {
  return `s${randomBytes(4).toString("hex")}`;
}

/**
 * A driver that creates services through the manager and reaches both nodes' engines; `more` sets a
 * disk quota, the runtime, the gVisor constraint, egress settings.
 */
export function testSwarmDriver(
  swarm: TestSwarm,
  instance: string,
  constraints: string[] = [],
  more: Partial<Pick<SwarmDriverOptions, "disk" | "runtime" | "egress">> & { gvisorConstraint?: string } = {},
): SwarmDriver {
  const { gvisorConstraint, ...options } = more;
  return new SwarmDriver(
    {
      instance,
      runtime: "runc",
      memoryBytes: 512 * 1024 * 1024,
      nanoCpus: 1e9,
      pidsLimit: 256,
      ...options,
      placement: {
        constraints,
        reservations: { memoryBytes: 64 * 1024 * 1024, nanoCpus: 1e8 },
        ...(gvisorConstraint ? { gvisorConstraint } : {}),
      },
      nodeEngines: new Map([
        [swarm.manager.nodeId, swarm.manager.docker],
        [swarm.worker.nodeId, swarm.worker.docker],
      ]),
    },
    swarm.manager.docker,
  );
}
