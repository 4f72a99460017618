import type { Config } from "./config";
import type { HardeningOptions } from "./docker/container-spec";
import { dockerDriverOfConfig } from "./docker/docker-driver-of-config";
import type { WorkspaceDriver } from "./driver/workspace-driver";
import type { InstanceDirectory } from "./swarm/node-channel/node-routes";
import { swarmDriverOfConfig } from "./swarm/swarm-driver-of-config";

/**
 * The driver the configuration asks for: the one place that knows which drivers exist. `instances`
 * (the service's own cluster membership) lets a swarm driver reach the instances on other nodes.
 */
export function createDriver(config: Config, instances?: InstanceDirectory): WorkspaceDriver {
  if (config.driver === "swarm") return swarmDriverOfConfig(config, hardeningOf(config), instances);
  return dockerDriverOfConfig(config, hardeningOf(config));
}

/** The configured bounds every workspace container gets, whichever driver runs it. */
export function hardeningOf(config: Config): HardeningOptions {
  return {
    instance: config.instance,
    runtime: config.runtime,
    memoryBytes: config.limits.memoryBytes,
    nanoCpus: config.limits.nanoCpus,
    pidsLimit: config.limits.pidsLimit,
  };
}
