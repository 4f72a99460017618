import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import type { PortStreams } from "../daemon/port-streams";

/** Keep-alive connections per port kept idle for the next request, and how long. */
const MAX_IDLE_PER_PORT = 8;
const IDLE_MS = 15_000;
/** Requests in flight to one port at once; more wait for a free connection. */
const MAX_PER_PORT = 32;

/**
 * A tunnel as the HTTP client expects a socket: the keep-alive and timeout calls the agent makes
 * on a TCP socket (an exec tunnel has no TCP options; its idle time is counted here). A relay's
 * unix socket is a socket already.
 */
function asSocket(tunnel: Duplex): Duplex {
  if (tunnel instanceof net.Socket) return tunnel;
  let idle: NodeJS.Timeout | undefined;
  let idleMs = 0;
  const touch = () => {
    if (idle) idle.refresh();
  };
  tunnel.on("data", touch);
  tunnel.once("close", () => clearTimeout(idle));
  return Object.assign(tunnel, {
    setKeepAlive: () => tunnel,
    setNoDelay: () => tunnel,
    ref: () => tunnel,
    unref: () => tunnel,
    // As net.Socket's: 0 turns the timer off and removes the callback given with it.
    setTimeout(ms: number, callback?: () => void) {
      clearTimeout(idle);
      idle = undefined;
      idleMs = ms;
      if (callback && ms === 0) tunnel.removeListener("timeout", callback);
      else if (callback) tunnel.once("timeout", callback);
      if (ms > 0) idle = setTimeout(() => tunnel.emit("timeout"), idleMs).unref();
      return tunnel;
    },
    get timeout() {
      return idleMs;
    },
  });
}

/**
 * The HTTP client's connections to the workspaces' ports: each is a PortStreams tunnel, kept alive
 * between requests (a new tunnel costs a relay connection, or a `docker exec` without a relay, so
 * reuse is what makes a page's requests cheap). Requests name the port as `{ host: <workspace id>, port }`, which is also the pool's key.
 */
export class TunnelAgent extends http.Agent {
  constructor(private readonly streams: PortStreams) {
    super({ keepAlive: true, maxSockets: MAX_PER_PORT, maxFreeSockets: MAX_IDLE_PER_PORT, timeout: IDLE_MS });
  }

  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): undefined {
    this.streams.open(String(options.host), Number(options.port)).then(
      (tunnel) => callback?.(null, asSocket(tunnel)),
      // The agent passes the error on to the request; the stream argument is never read then.
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}
