import type Docker from "dockerode";

/** A workspace runs on a node whose engine this instance cannot reach. */
export class NodeUnreachableError extends Error {
  constructor(nodeId: string) {
    super(
      `the workspace runs on another machine of the swarm (node ${nodeId}), which this service instance cannot reach`,
    );
    this.name = "NodeUnreachableError";
  }
}

/**
 * The Docker engines of the swarm's nodes this instance reaches, by Swarm node id: exec, terminals,
 * jobs beside a workspace and its volumes go through the engine of the node its task runs on. In
 * production an instance has its own node's engine only; tests give every node's.
 */
export class NodeEngines {
  private readonly engines: Map<string, Docker>;

  constructor(engines: ReadonlyMap<string, Docker> = new Map()) {
    this.engines = new Map(engines);
  }

  add(nodeId: string, docker: Docker): void {
    this.engines.set(nodeId, docker);
  }

  has(nodeId: string): boolean {
    return this.engines.has(nodeId);
  }

  /** Every engine reached, one per node. */
  all(): Iterable<Docker> {
    return this.engines.values();
  }

  get(nodeId: string): Docker {
    const docker = this.engines.get(nodeId);
    if (!docker) throw new NodeUnreachableError(nodeId);
    return docker;
  }
}
