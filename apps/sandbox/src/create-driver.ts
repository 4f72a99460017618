import type { Config } from "./config";
import { DockerDriver } from "./docker/docker-driver";
import type { WorkspaceDriver } from "./driver/workspace-driver";

/** The driver the configuration asks for: the one place that knows which drivers exist. */
export function createDriver(config: Config): WorkspaceDriver {
  return new DockerDriver({
    instance: config.instance,
    runtime: config.runtime,
    memoryBytes: config.limits.memoryBytes,
    nanoCpus: config.limits.nanoCpus,
    pidsLimit: config.limits.pidsLimit,
    egress: { helperImage: config.image, allow: config.egressAllow },
    // The workspace image runs the disk jobs too: it is on the engine whenever workspaces are.
    disk: { ...config.disk, toolImage: config.image },
  });
}
