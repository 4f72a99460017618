import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";

const filePath = z
  .string()
  .trim()
  .min(1)
  .transform((p) => path.resolve(p))
  .optional();

/**
 * How the instances of a swarm reach each other (CODER_DRIVER=swarm, one instance per node): the
 * manager's engine API for an instance on a worker, and the node channel every instance listens on
 * so the others can run a workspace's processes on its node. Both only over TLS with certificates of
 * the cluster's own CA.
 */
export const swarmNodesEnv = {
  /** This node's engine (the swarm driver reads it from the configuration, not from the process). */
  DOCKER_HOST: z.string().trim().min(1).optional(),
  /** A manager's engine API, for an instance on a worker node: tcp://host:2376 (always with TLS). */
  CODER_SWARM_MANAGER: z
    .string()
    .trim()
    .regex(/^tcp:\/\/[^\s/:]+:\d{1,5}$/, "must be like tcp://manager.example:2376")
    .optional(),
  /** The cluster's CA, and this instance's certificate and key signed by it (PEM files). */
  CODER_SWARM_TLS_CA: filePath,
  CODER_SWARM_TLS_CERT: filePath,
  CODER_SWARM_TLS_KEY: filePath,
  /** The port of this instance's node channel; unset: no channel (a swarm of one machine). */
  CODER_NODE_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The name or address the other instances reach this one's node channel at. */
  CODER_NODE_ADDRESS: z.string().trim().min(1).default(hostname()),
};

type SwarmNodesEnv = z.output<z.ZodObject<typeof swarmNodesEnv>>;

const TLS = ["CODER_SWARM_TLS_CA", "CODER_SWARM_TLS_CERT", "CODER_SWARM_TLS_KEY"] as const;

/** A manager endpoint or a node channel needs the cluster's certificates: the start stops without them. */
export function requireSwarmTls(env: SwarmNodesEnv, ctx: z.RefinementCtx): void {
  const needs = [
    env.CODER_SWARM_MANAGER !== undefined && "CODER_SWARM_MANAGER",
    env.CODER_NODE_PORT !== undefined && "CODER_NODE_PORT",
  ].filter(Boolean);
  const given = TLS.filter((name) => env[name] !== undefined);
  if (needs.length === 0 && given.length === 0) return;
  for (const name of TLS.filter((n) => env[n] === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [name],
      message: `is needed: the instances of a swarm talk only over TLS (${[...needs, ...given].join(", ")} is set)`,
    });
  }
}

/** PEM files of the cluster's CA and of this instance's certificate. */
export interface ClusterTlsFiles {
  ca: string;
  cert: string;
  key: string;
}

export interface SwarmNodesConfig {
  /** This node's engine; unset: dockerode's default (DOCKER_HOST of the process, or the local socket). */
  dockerHost?: string;
  /** A manager's engine API over TLS; unset: this node's engine is a manager. */
  manager?: { host: string; port: number };
  tls?: ClusterTlsFiles;
  /** Set: this instance listens for the other instances there. */
  nodeChannel?: { port: number; address: string };
}

export function swarmNodesConfig(env: SwarmNodesEnv): SwarmNodesConfig {
  const manager = env.CODER_SWARM_MANAGER && new URL(env.CODER_SWARM_MANAGER.replace(/^tcp:/, "https:"));
  const { CODER_SWARM_TLS_CA: ca, CODER_SWARM_TLS_CERT: cert, CODER_SWARM_TLS_KEY: key } = env;
  return {
    ...(env.DOCKER_HOST ? { dockerHost: env.DOCKER_HOST } : {}),
    ...(manager ? { manager: { host: manager.hostname, port: Number(manager.port) } } : {}),
    ...(ca && cert && key ? { tls: { ca, cert, key } } : {}),
    ...(env.CODER_NODE_PORT !== undefined
      ? { nodeChannel: { port: env.CODER_NODE_PORT, address: env.CODER_NODE_ADDRESS } }
      : {}),
  };
}
