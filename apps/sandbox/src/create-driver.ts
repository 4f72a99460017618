import path from "node:path";
import Docker from "dockerode";
import type { Config } from "./config";
import { DockerDriver } from "./docker/docker-driver";
import type { WorkspaceDriver } from "./driver/workspace-driver";
import { loadClusterTls } from "./swarm/node-channel/cluster-tls";
import { type InstanceDirectory, InstanceNodeRoutes } from "./swarm/node-channel/node-routes";
import { SwarmDriver } from "./swarm/swarm-driver";

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
  if (config.driver === "swarm") {
    const { dockerHost, manager, tls } = config.swarmNodes;
    const cluster = tls && loadClusterTls(tls);
    const local = engineAt(dockerHost);
    return new SwarmDriver(
      {
        ...hardening,
        placement: config.swarm,
        // The workspace image runs the disk jobs on each node, as it does on the one engine.
        disk: { ...config.disk, toolImage: config.image },
        ...(manager ? { local } : {}),
        ...(cluster && instances ? { routes: new InstanceNodeRoutes(instances, cluster) } : {}),
      },
      // A manager elsewhere is reached only with the cluster's client certificate.
      manager && cluster ? new Docker({ ...manager, protocol: "https", ...cluster }) : local,
    );
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

/** The engine of a DOCKER_HOST-style address (unix:///path or tcp://host:port); unset: dockerode's default. */
function engineAt(host: string | undefined): Docker {
  if (!host) return new Docker();
  if (host.startsWith("unix://")) return new Docker({ socketPath: host.slice("unix://".length) });
  const url = new URL(host.replace(/^tcp:/, "http:"));
  return new Docker({ host: url.hostname, port: Number(url.port) });
}

function localEngine(): boolean {
  const host = process.env.DOCKER_HOST;
  return !host || host.startsWith("unix://");
}
