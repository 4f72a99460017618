import type { ClusterTls } from "./cluster-tls";
import { NodeChannelClient, nodeUnavailable } from "./node-channel-client";

/** Where a live instance of this node's swarm listens, by Swarm node id (cluster/service-instance.ts). */
export interface InstanceDirectory {
  nodeChannelOf(nodeId: string): Promise<string | undefined>;
}

/** The way to a workspace's processes on a node whose engine this instance does not reach. */
export interface NodeRoutes {
  /** Rejects with `unavailable`, naming the node, when no instance there answers. */
  to(nodeId: string): Promise<NodeChannelClient>;
}

/** Routes through the node channel of the live instance registered for the node. */
export class InstanceNodeRoutes implements NodeRoutes {
  constructor(
    private readonly instances: InstanceDirectory,
    private readonly cluster: ClusterTls,
  ) {}

  async to(nodeId: string): Promise<NodeChannelClient> {
    const address = await this.instances.nodeChannelOf(nodeId);
    if (!address) throw nodeUnavailable(nodeId);
    return new NodeChannelClient(hostAndPort(address), this.cluster, nodeId);
  }
}

/** `host:port`, `1.2.3.4:port` or `[::1]:port`. */
export function hostAndPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(":");
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, "$1"), port: Number(address.slice(at + 1)) };
}

/** How an instance's node channel is written in its row: IPv6 addresses in brackets. */
export function channelAddress(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}
