import path from "node:path";
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
    // The relays' sockets are host files: only for an engine on this host (DOCKER_HOST unset or a
    // unix socket), where the service's folders are the engine's.
    ...(localEngine() ? { tunnelDir: path.join(config.dataDir, "tunnels", config.instance) } : {}),
  });
}

function localEngine(): boolean {
  const host = process.env.DOCKER_HOST;
  return !host || host.startsWith("unix://");
}
