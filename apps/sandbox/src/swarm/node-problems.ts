import type Docker from "dockerode";
import { statusCode } from "../docker/engine-errors";

/** What the swarm says of one of its nodes (`docker node inspect`), the parts read here. */
export interface SwarmNode {
  ID: string;
  Spec?: { Availability?: string };
  Status?: { State?: string };
}

/** A workspace cannot run because of the machine it is pinned to: the message says why, for a person. */
export class NodeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NodeUnavailableError";
  }
}

function named(nodeId: string): string {
  return `node ${nodeId.slice(0, 12)}`;
}

/** Why nothing of a workspace pinned to `node` runs there now (drained, paused, lost), if so. */
export function nodeProblem(node: SwarmNode): string | undefined {
  const state = node.Status?.State ?? "unknown";
  if (state !== "ready") return nodeLost(node.ID);
  switch (node.Spec?.Availability) {
    case "drain":
      return `stopped because the machine it runs on (${named(node.ID)}) is being drained; ask an operator to make it active again`;
    case "pause":
      return `the machine it runs on (${named(node.ID)}) is paused and starts nothing new; ask an operator to make it active again`;
    default:
      return undefined;
  }
}

/** The words for a machine the swarm (or this instance) cannot reach: the same wherever it shows. */
export function nodeLost(nodeId: string): string {
  return `node unavailable: the machine it runs on (${named(nodeId)}) does not answer the swarm; it can start again once that machine is back`;
}

/** The problem of one node, asked of a manager; a node that left the swarm is lost. */
export async function problemOfNode(manager: Docker, nodeId: string): Promise<string | undefined> {
  try {
    return nodeProblem((await manager.getNode(nodeId).inspect()) as SwarmNode);
  } catch (err) {
    if (statusCode(err) === 404) return nodeLost(nodeId);
    throw err;
  }
}

/** Every node's problem from one listing (for the workspace list): a node not listed left the swarm. */
export async function problemsOfNodes(manager: Docker): Promise<(nodeId: string) => string | undefined> {
  const nodes = new Map(((await manager.listNodes()) as SwarmNode[]).map((node) => [node.ID, node]));
  return (nodeId) => {
    const node = nodes.get(nodeId);
    return node ? nodeProblem(node) : nodeLost(nodeId);
  };
}

/** Connecting to an engine failed this way: nothing answers there (a reset mid-answer is not that). */
const UNREACHABLE = ["ECONNREFUSED", "ENOENT", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT"];

/**
 * An engine's connection failed (refused, reset while connecting, no socket, no route, timed out): its machine is gone as
 * far as this instance can tell, whatever the swarm says yet.
 */
export function isUnreachable(err: unknown): boolean {
  const { code = "", syscall } = err as { code?: string; syscall?: string };
  // An engine going away may still take a connection and drop it: reset while connecting.
  return UNREACHABLE.includes(code) || (code === "ECONNRESET" && syscall === "connect");
}

/** How long a node's engine may take to answer a ping before its machine counts as lost. */
const PING_WAIT_MS = 2000;

/**
 * Whether the engine still answers: asked after an operation on it failed, since an engine going away
 * fails in many ways (refused, reset while connecting or mid-answer, a hang-up) and only some of them
 * carry a telling code.
 */
export async function engineAnswers(engine: Docker): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_WAIT_MS);
  });
  try {
    return await Promise.race([engine.ping().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
