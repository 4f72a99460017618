import path from "node:path";
import type { Config } from "./config";
import { DockerDriver } from "./docker/docker-driver";
import type { WorkspaceDriver } from "./driver/workspace-driver";
import type { InstanceDirectory } from "./swarm/node-channel/node-routes";
import { swarmDriverOfConfig } from "./swarm/swarm-driver-of-config";

/**
 * The driver the configuration asks for: the one place that knows which drivers exist. `instances`
 * (the service's own cluster membership) lets a swarm driver reach the instances on other nodes.
 */
export function createDriver(config: Config, instances?: InstanceDirectory): WorkspaceDriver {
  const hardening = {
    instance: config.instance,
    runtime: config.runtime,
    memoryBytes: config.limits.memoryBytes,
    nanoCpus: config.limits.nanoCpus,
    pidsLimit: config.limits.pidsLimit,
  };
  if (config.driver === "swarm") return swarmDriverOfConfig(config, hardening, instances);
  return new DockerDriver({
    ...hardening,
    egress: { helperImage: config.image, allow: config.egressAllow },
    // The workspace image runs the disk jobs too: it is on the engine whenever workspaces are.
    disk: { ...config.disk, toolImage: config.image },
    // The relays' sockets are host files: only for an engine on this host (DOCKER_HOST unset or a
    // unix socket), where the service's folders are the engine's.
    ...(localEngine() ? { tunnelDir: path.join(config.tunnelDir, config.instance) } : {}),
  });
}

function localEngine(): boolean {
  const host = process.env.DOCKER_HOST;
  return !host || host.startsWith("unix://");
}
