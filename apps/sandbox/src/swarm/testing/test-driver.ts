// Test support: a Swarm driver on the test swarm.
import { randomBytes } from "node:crypto";
import { SwarmDriver, type SwarmDriverOptions } from "../swarm-driver";
import type { TestSwarm, TestSwarmNode } from "./test-swarm";

export function newSwarmInstance(): string {
  return `s${randomBytes(4).toString("hex")}`;
}

/**
 * A driver that creates services through the manager and reaches both nodes' engines (or, `on` a
 * node, that one's); `more` sets a disk quota, the runtime, the gVisor constraint, egress settings.
 */
export function testSwarmDriver(
  swarm: TestSwarm,
  instance: string,
  constraints: string[] = [],
  more: Partial<Pick<SwarmDriverOptions, "disk" | "runtime" | "egress" | "routes">> & {
    gvisorConstraint?: string;
    /** An instance on this node that reaches only its engine (the others through `routes`). */
    on?: TestSwarmNode;
  } = {},
): SwarmDriver {
  const { gvisorConstraint, on, ...options } = more;
  const reached = on ? [on] : [swarm.manager, swarm.worker];
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
      nodeEngines: new Map(reached.map((node) => [node.nodeId, node.docker])),
      ...(on && on !== swarm.manager ? { local: on.docker } : {}),
    },
    swarm.manager.docker,
  );
}
