import { type DaemonMethod, type DaemonRequests, GIT_NETWORK_DEADLINE_MS } from "@coder/protocol";
import { bashTimeoutMs } from "@coder/tools";

export interface DaemonTimeouts {
  /** The ping that opens a connection, and the one that checks a daemon after a request timed out. */
  pingMs: number;
  /**
   * The first answer of a daemon in a workspace that is being created or started: a busy machine
   * starts it slowly, so past `pingMs` the wait goes on while the container runs and the daemon
   * lives, up to this.
   */
  startMs: number;
  /** A request of its own kind; tool calls and snapshots get twice this, bash its timeout plus this. */
  requestMs: number;
}

export const DEFAULT_DAEMON_TIMEOUTS: DaemonTimeouts = {
  pingMs: 10_000,
  startMs: 180_000,
  requestMs: 60_000,
};

/**
 * How long the service waits for the daemon's answer. Bash stops its command at its own timeout
 * (up to 10 min), so a call gets that plus a margin; tool calls, snapshots and searches walk the
 * workspace and get a longer default than file calls.
 */
export function requestTimeoutMs<M extends DaemonMethod>(
  method: M,
  params: DaemonRequests[M]["params"],
  timeouts: DaemonTimeouts,
): number {
  if (method === "tools.execute") {
    const { tool, args } = params as DaemonRequests["tools.execute"]["params"];
    if (tool !== "bash") return 2 * timeouts.requestMs;
    const asked = args?.timeout_ms;
    return bashTimeoutMs(typeof asked === "number" && asked > 0 ? asked : undefined) + timeouts.requestMs;
  }
  // The daemon stops a fetch, pull or push at its own deadline.
  if (method === "git.fetch" || method === "git.pull" || method === "git.push") {
    return GIT_NETWORK_DEADLINE_MS + timeouts.requestMs;
  }
  if (method.startsWith("snapshot.") || method.startsWith("search.")) return 2 * timeouts.requestMs;
  return timeouts.requestMs;
}
