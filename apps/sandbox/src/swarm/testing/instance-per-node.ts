// Test support: the service as it runs on a swarm in production, one instance per node of the test
// swarm on one PostgreSQL database: each instance's engine is its own node's, the worker's reaches
// the manager's engine API over TLS, and each serves a node channel to the other.
import { createPostgresDatabase } from "../../db/testing/test-database";
import { requireImage, type SharedPlace, sharedPlace } from "../../testing/harness";
import { pinnedTo, serviceName } from "../service-spec";
import { startTestSwarm, type TestSwarm } from "./test-swarm";

export type SwarmInstance = Awaited<ReturnType<SharedPlace["start"]>>;

export interface InstancePerNode {
  swarm: TestSwarm;
  place: SharedPlace;
  onManager: SwarmInstance;
  onWorker: SwarmInstance;
  /** Stops both instances, drops what they made, removes the swarm. */
  close(): Promise<void>;
}

export interface InstancePerNodeOptions {
  /** Configuration of both instances (CODER_WARM_POOL, a model, …). */
  env?: Record<string, string>;
  /** Of the manager's instance only (CODER_SWARM_CONSTRAINTS, …). */
  onManager?: Record<string, string>;
  /** Of the worker's instance only. */
  onWorker?: Record<string, string>;
  /** Both instances' service log. */
  log?: (line: string) => void;
}

/** Starts the test swarm and an instance on each of its nodes; a failure on the way removes it all. */
export async function startInstancePerNode(options: InstancePerNodeOptions = {}): Promise<InstancePerNode> {
  const swarm = await startTestSwarm([requireImage()]);
  let place: SharedPlace | undefined;
  const close = async () => {
    await place?.close().catch(() => undefined);
    await swarm.remove();
  };
  try {
    place = sharedPlace(
      {
        CODER_DATABASE_URL: await createPostgresDatabase(),
        CODER_DRIVER: "swarm",
        CODER_SWARM_RESERVE_MEMORY_MB: "64",
        CODER_SWARM_RESERVE_CPUS: "0.1",
        CODER_NODE_PORT: "0",
        CODER_NODE_ADDRESS: "127.0.0.1",
        CODER_SWARM_TLS_CA: swarm.tls.ca,
        CODER_SWARM_TLS_CERT: swarm.tls.cert,
        CODER_SWARM_TLS_KEY: swarm.tls.key,
        ...options.env,
      },
      options.log,
    );
    const onManager = await place.start({
      DOCKER_HOST: `unix://${swarm.manager.socket}`,
      ...options.onManager,
    });
    const onWorker = await place.start({
      DOCKER_HOST: `unix://${swarm.worker.socket}`,
      CODER_SWARM_MANAGER: swarm.managerEndpoint,
      ...options.onWorker,
    });
    return { swarm, place, onManager, onWorker, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The node a workspace's service is pinned to (where its volumes are); undefined before it was placed. */
export async function pinnedNode(
  swarm: TestSwarm,
  instance: string,
  id: string,
): Promise<string | undefined> {
  const info = await swarm.manager.docker.getService(serviceName(instance, id)).inspect();
  const constraints: string[] = info.Spec.TaskTemplate.Placement?.Constraints ?? [];
  return constraints.find((c) => c.startsWith(pinnedTo("")))?.slice(pinnedTo("").length);
}
