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
      diskQuotaAsked: config.disk.workspaceMb > 0,
    });
  }
  return new DockerDriver({
    ...hardening,
    egress: { helperImage: config.image, allow: config.egressAllow },
    // The workspace image runs the disk jobs too: it is on the engine whenever workspaces are.
    disk: { ...config.disk, toolImage: config.image },
  });
}
