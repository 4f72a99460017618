import Docker from "dockerode";
import type { Config } from "../config";
import type { HardeningOptions } from "../docker/container-spec";
import { loadClusterTls } from "./node-channel/cluster-tls";
import { type InstanceDirectory, InstanceNodeRoutes } from "./node-channel/node-routes";
import { SwarmDriver } from "./swarm-driver";

/**
 * The Swarm driver the configuration asks for: services through the instance's own engine when it is
 * a manager, or through `CODER_SWARM_MANAGER` with the cluster's client certificate; the workspaces on
 * other nodes through their instances (`instances`: the service's own cluster membership).
 */
export function swarmDriverOfConfig(
  config: Config,
  hardening: HardeningOptions,
  instances?: InstanceDirectory,
): SwarmDriver {
  const { dockerHost, manager, tls } = config.swarmNodes;
  const cluster = tls && loadClusterTls(tls);
  const local = engineAt(dockerHost);
  return new SwarmDriver(
    {
      ...hardening,
      placement: config.swarm,
      // The workspace image runs the disk jobs on each node, as it does on the one engine.
      disk: { ...config.disk, toolImage: config.image },
      // The workspace image carries iptables for the egress firewall helper, as on the one engine.
      egress: { helperImage: config.image, allow: config.egressAllow },
      ...(manager ? { local } : {}),
      ...(cluster && instances ? { routes: new InstanceNodeRoutes(instances, cluster) } : {}),
    },
    // A manager elsewhere is reached only with the cluster's client certificate.
    manager && cluster ? new Docker({ ...manager, protocol: "https", ...cluster }) : local,
  );
}

/** The engine of a DOCKER_HOST-style address (unix:///path or tcp://host:port); unset: dockerode's default. */
function engineAt(host: string | undefined): Docker {
  if (!host) return new Docker();
  if (host.startsWith("unix://")) return new Docker({ socketPath: host.slice("unix://".length) });
  const url = new URL(host.replace(/^tcp:/, "http:"));
  return new Docker({ host: url.hostname, port: Number(url.port) });
}
