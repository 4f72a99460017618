import path from "node:path";
import type { Config } from "./config";
import { DockerDriver } from "./docker/docker-driver";
import type { WorkspaceDriver } from "./driver/workspace-driver";
import { SwarmDriver } from "./swarm/swarm-driver";

/** The driver the configuration asks for: the one place that knows which drivers exist. */
export function createDriver(config: Config): WorkspaceDriver {
  const hardening = {
    instance: config.instance,
    runtime: config.runtime,
    memoryBytes: config.limits.memoryBytes,
    nanoCpus: config.limits.nanoCpus,
    pidsLimit: config.limits.pidsLimit,
  };
  if (config.driver === "swarm") {
    return new SwarmDriver({
      ...hardening,
      placement: config.swarm,
      // The workspace image runs the disk jobs on each node, as it does on the one engine.
      disk: { ...config.disk, toolImage: config.image },
    });
  }
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
