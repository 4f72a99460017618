import type { Duplex } from "node:stream";
import type { PortStreams } from "../daemon/port-streams";
import { AnswerError, type AnswerEvents, AnswerParser } from "./answer-parser";
import type { PreviewTarget } from "./preview-host";

/** Keep-alive tunnels per port kept idle for the next request, and how long. */
const MAX_IDLE_PER_PORT = 8;
const IDLE_MS = 15_000;
/** Requests in flight to one port at once; more wait for a free tunnel. */
const MAX_PER_PORT = 32;

/**
 * A tunnel to an app's port with the parser of its answers. It carries one request at a time;
 * between them it belongs to no one, and any byte the app sends then ends it.
 */
export class AppTunnel {
  /** Where the current answer's head, body and end go; none while idle. */
  listener: AnswerEvents | undefined;
  /** Called once if the tunnel fails or ends: while a request is on it, or while it waits idle. */
  onLost: ((error: Error) => void) | undefined;
  readonly parser: AnswerParser;
  /** Whether an earlier request used it (the app may have closed it meanwhile). */
  reused = false;

  constructor(readonly stream: Duplex) {
    const unasked = () => {
      throw new AnswerError("the app answered a request nobody made");
    };
    this.parser = new AnswerParser({
      head: (head) => (this.listener ?? { head: unasked }).head(head),
      body: (chunk) => this.listener?.body(chunk),
      end: (reusable) => this.listener?.end(reusable),
    });
    stream.on("data", (chunk: Buffer) => this.read(() => this.parser.push(chunk)));
    // The app hung up: an answer that ran until the close is complete; the tunnel is done either way.
    stream.once("end", () => {
      this.read(() => this.parser.close());
      this.lost(new AnswerError("the app closed the connection", true));
    });
    stream.once("close", () => this.lost(new AnswerError("the app closed the connection", true)));
    stream.on("error", (error: Error) => this.lost(error));
  }

  private read(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.lost(error as Error);
    }
  }

  private lost(error: Error): void {
    const onLost = this.onLost;
    this.onLost = undefined;
    this.listener = undefined;
    this.stream.destroy();
    onLost?.(error);
  }

  get usable(): boolean {
    return !this.stream.destroyed && !this.parser.busy;
  }
}

interface PortPool {
  busy: number;
  idle: { tunnel: AppTunnel; timer: NodeJS.Timeout }[];
  waiting: (() => void)[];
}

/**
 * The tunnels to the workspaces' ports (PortStreams), kept alive between requests: a new tunnel
 * costs a relay connection, or a `docker exec` without a relay, so reuse is what makes a page's
 * requests cheap. At most MAX_PER_PORT requests per port at once (the rest wait their turn), at most
 * MAX_IDLE_PER_PORT idle tunnels kept, each for IDLE_MS.
 */
export class AppTunnels {
  private readonly pools = new Map<string, PortPool>();

  constructor(private readonly streams: PortStreams) {}

  /** A tunnel for one request to `target`: an idle one unless `fresh`, else a new one. */
  async acquire(target: PreviewTarget, fresh = false): Promise<AppTunnel> {
    const pool = this.pool(target);
    while (pool.busy >= MAX_PER_PORT) await new Promise<void>((resolve) => pool.waiting.push(resolve));
    pool.busy++;
    for (let kept = fresh ? undefined : pool.idle.pop(); kept; kept = pool.idle.pop()) {
      clearTimeout(kept.timer);
      kept.tunnel.onLost = undefined;
      if (kept.tunnel.usable) return kept.tunnel;
    }
    try {
      return new AppTunnel(await this.streams.open(target.workspaceId, target.port));
    } catch (error) {
      this.done(target, pool);
      throw error;
    }
  }

  /** Gives back a tunnel after its request: kept for the next one if `reusable`, else ended. */
  release(target: PreviewTarget, tunnel: AppTunnel, reusable: boolean): void {
    const pool = this.pool(target);
    tunnel.listener = undefined;
    tunnel.onLost = undefined;
    if (reusable && tunnel.usable && pool.idle.length < MAX_IDLE_PER_PORT) {
      tunnel.reused = true;
      tunnel.stream.resume();
      const timer = setTimeout(() => tunnel.stream.destroy(), IDLE_MS).unref();
      pool.idle.push({ tunnel, timer });
      // Closed by the app, or ended by a byte it sent, while idle: no longer offered.
      tunnel.onLost = () => {
        clearTimeout(timer);
        const at = pool.idle.findIndex((kept) => kept.tunnel === tunnel);
        if (at >= 0) pool.idle.splice(at, 1);
      };
    } else {
      tunnel.stream.destroy();
    }
    this.done(target, pool);
  }

  /** Ends every tunnel (the service stops). */
  close(): void {
    for (const pool of this.pools.values()) for (const { tunnel } of pool.idle) tunnel.stream.destroy();
    this.pools.clear();
  }

  private done(target: PreviewTarget, pool: PortPool): void {
    pool.busy--;
    pool.waiting.shift()?.();
    if (pool.busy === 0 && pool.idle.length === 0 && pool.waiting.length === 0)
      this.pools.delete(key(target));
  }

  private pool(target: PreviewTarget): PortPool {
    let pool = this.pools.get(key(target));
    if (!pool) {
      pool = { busy: 0, idle: [], waiting: [] };
      this.pools.set(key(target), pool);
    }
    return pool;
  }
}

const key = (target: PreviewTarget) => `${target.workspaceId}:${target.port}`;
