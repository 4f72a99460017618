import type net from "node:net";
import { Pool } from "undici";
import type { PortStreams } from "../daemon/port-streams";

/** Connections to one port at once; more requests wait for a free one. */
const MAX_PER_PORT = 32;
/** How long an idle keep-alive connection stays (less when the app says it keeps it for less). */
const IDLE_MS = 15_000;

/**
 * The HTTP client's connections to the workspaces' ports: one undici pool per port, each
 * connection a PortStreams tunnel kept alive between requests (a new tunnel costs a relay
 * connection, or a `docker exec` without a relay). undici, not node's http client: its dispatch
 * API hands the answer over without an IncomingMessage, a stream pipe or an agent's bookkeeping per
 * request, half the CPU of node's client for a small page (the preview bench). A port's pool goes
 * once it holds no connection (so a sweep over many ports leaves nothing behind).
 */
export class TunnelPools {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly streams: PortStreams) {}

  /** The pool of `port` in the workspace. */
  of(workspaceId: string, port: number): Pool {
    const key = `${port}-${workspaceId}`;
    const known = this.pools.get(key);
    if (known) return known;
    const pool = new Pool(`http://${key}.invalid`, {
      connections: MAX_PER_PORT,
      keepAliveTimeout: IDLE_MS,
      keepAliveMaxTimeout: IDLE_MS,
      // An app may take its time (a long poll, a server-sent event stream), as with any server.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: (_options, callback) => {
        this.streams.open(workspaceId, port).then(
          // A relay's unix socket, or an exec tunnel (a Duplex): undici needs only a stream's calls.
          (tunnel) => callback(null, tunnel as net.Socket),
          (error: Error) => callback(error, null),
        );
      },
    });
    // Once the failed or closed connection's requests are settled (the event comes before).
    const forgetIfEmpty = () =>
      setImmediate(() => {
        const { connected, pending, running } = pool.stats;
        if (connected + pending + running > 0 || this.pools.get(key) !== pool) return;
        this.pools.delete(key);
        void pool.close();
      });
    pool.on("disconnect", forgetIfEmpty);
    pool.on("connectionError", forgetIfEmpty);
    this.pools.set(key, pool);
    return pool;
  }

  /** Ends every connection (the service stops). */
  destroy(): void {
    for (const pool of this.pools.values()) void pool.destroy();
    this.pools.clear();
  }
}
