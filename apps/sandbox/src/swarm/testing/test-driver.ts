// Test support: a Swarm driver on the test swarm, and the output of a process run through it.
import { randomBytes } from "node:crypto";
import type { AttachedProcess } from "../../driver/workspace-driver";
import { SwarmDriver } from "../swarm-driver";
import type { TestSwarm } from "./test-swarm";

export function newSwarmInstance(): string {
  return `s${randomBytes(4).toString("hex")}`;
}

/** A driver that creates services through the manager and reaches both nodes' engines. */
export function testSwarmDriver(swarm: TestSwarm, instance: string, constraints: string[] = []): SwarmDriver {
  return new SwarmDriver(
    {
      instance,
      runtime: "runc",
      memoryBytes: 512 * 1024 * 1024,
      nanoCpus: 1e9,
      pidsLimit: 256,
      placement: { constraints, reservations: { memoryBytes: 64 * 1024 * 1024, nanoCpus: 1e8 } },
      nodeEngines: new Map([
        [swarm.manager.nodeId, swarm.manager.docker],
        [swarm.worker.nodeId, swarm.worker.docker],
      ]),
    },
    swarm.manager.docker,
  );
}

/** Feeds `input` (or nothing) and collects stdout and stderr until the process ends. */
export async function outputOf(process: AttachedProcess, input = ""): Promise<{ code: number; out: string }> {
  process.stdin.end(input);
  const chunks: Buffer[] = [];
  const collect = (c: Buffer) => chunks.push(c);
  process.stdout.on("data", collect);
  process.stderr.on("data", collect);
  const code = await process.exited;
  return { code: code ?? -1, out: Buffer.concat(chunks).toString() };
}
