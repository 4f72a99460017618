import type { Config } from "../../config";
import type { WorkspaceDriver } from "../../driver/workspace-driver";
import { SwarmDriver } from "../swarm-driver";
import { loadClusterTls } from "./cluster-tls";
import { NodeChannelServer } from "./node-channel-server";
import { channelAddress } from "./node-routes";

/** Where an instance writes which node it runs on and where its node channel listens. */
export interface NodeAnnouncement {
  announceNode(nodeId: string, address: string | null): Promise<void>;
}

/**
 * Under the swarm driver (once it is ready): listens on the node channel when one is configured, and
 * writes this instance's node and channel address into its row so the others find it.
 */
export async function openNodeChannel(
  config: Config,
  driver: WorkspaceDriver,
  instance: NodeAnnouncement,
  log: (line: string) => void,
): Promise<NodeChannelServer | undefined> {
  if (!(driver instanceof SwarmDriver)) return undefined;
  const { nodeChannel, tls } = config.swarmNodes;
  const server =
    nodeChannel && tls
      ? await NodeChannelServer.listen(loadClusterTls(tls), nodeChannel.port, driver, log)
      : undefined;
  await instance.announceNode(
    driver.nodeId,
    server && nodeChannel ? channelAddress(nodeChannel.address, server.port) : null,
  );
  return server;
}
