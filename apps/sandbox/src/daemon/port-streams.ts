import { Duplex, type Readable } from "node:stream";
import { containerLayout } from "@coder/protocol";
import type { AttachedProcess, WorkspaceDriver } from "../driver/workspace-driver";
import { ServiceError } from "../errors/service-error";

/** The most tunnels one workspace may hold open at once (each is a process in its container). */
export const MAX_TUNNELS_PER_WORKSPACE = 64;

/** The relay's first byte on stdout: it reached the port; everything after is the port's. */
const CONNECTED = 0x2b; // "+"

/**
 * The relay run inside the container for one tunnel (`node -e`, the port as its argument): connects
 * to 127.0.0.1:<port> (without Nagle's delay), says so with one byte, then pipes stdin to the socket and the socket to
 * stdout, half-closes each way, and exits when both are done. Nothing listening: exits with 3 and
 * no output. Node writes to a pipe synchronously, so a full pipe holds the relay (backpressure).
 */
const RELAY = `const s=require("net").connect({port:+process.argv[1],host:"127.0.0.1",noDelay:true});
s.once("error",()=>process.exit(s.connecting?3:0));
s.once("connect",()=>{process.stdout.write("+");s.pipe(process.stdout);process.stdin.pipe(s);});
s.once("close",()=>process.exit(0));`;

/** Reads the relay's first byte: true once it connected (the rest put back), false when it ended without. */
function relayConnected(stdout: Readable): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (connected: boolean) => {
      stdout.off("readable", onReadable);
      stdout.off("end", onEnd);
      stdout.off("error", onEnd);
      resolve(connected);
    };
    const onEnd = () => done(false);
    const onReadable = () => {
      const chunk: Buffer | null = stdout.read();
      if (chunk === null) return;
      if (chunk[0] !== CONNECTED) return done(false);
      if (chunk.length > 1) stdout.unshift(chunk.subarray(1));
      done(true);
    };
    stdout.on("readable", onReadable);
    stdout.once("end", onEnd);
    stdout.once("error", onEnd);
  });
}

/**
 * Byte streams to the TCP ports inside workspaces, which have no network (never a published port,
 * never an attached network). Where the driver has a `portConnection` (a relay beside the workspace
 * in its network namespace, reached over a unix socket: docker/port-relay.ts), each stream is one
 * of those; otherwise, or when that relay cannot be had, each is one `docker exec` of a small relay
 * that connects to 127.0.0.1:<port> in the container. Backpressure holds both ways, and closing
 * either side closes the other. A workspace holds at most MAX_TUNNELS_PER_WORKSPACE at once.
 */
export class PortStreams {
  private readonly openCount = new Map<string, number>();
  /** Workspaces whose previews fell back to exec, said once in the log until the relay works again. */
  private readonly fellBack = new Set<string>();

  constructor(
    private readonly driver: WorkspaceDriver,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** How many tunnels the workspace holds open now. */
  count(workspaceId: string): number {
    return this.openCount.get(workspaceId) ?? 0;
  }

  /**
   * A stream connected to 127.0.0.1:<port> inside the workspace's container. Rejects with
   * "unavailable" when nothing listens there, "too_many" beyond the bound.
   */
  async open(workspaceId: string, port: number): Promise<Duplex> {
    if (this.count(workspaceId) >= MAX_TUNNELS_PER_WORKSPACE) {
      throw new ServiceError(
        "too_many",
        `this workspace already has ${MAX_TUNNELS_PER_WORKSPACE} preview connections open`,
      );
    }
    this.openCount.set(workspaceId, this.count(workspaceId) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = this.count(workspaceId) - 1;
      if (left > 0) this.openCount.set(workspaceId, left);
      else this.openCount.delete(workspaceId);
    };
    let tunnel: Duplex | null;
    try {
      tunnel = await this.connect(workspaceId, port);
    } catch (error) {
      release();
      throw error;
    }
    if (!tunnel) {
      release();
      throw new ServiceError("unavailable", `nothing listens on port ${port} in the workspace`);
    }
    // Ending a tunnel early is normal (a browser leaves mid-answer), and must not take the service
    // down; users see the close (and may listen for errors).
    tunnel.on("error", () => undefined);
    tunnel.once("close", release);
    return tunnel;
  }

  /** The driver's own connection when it has one that works, else the exec relay. */
  private async connect(workspaceId: string, port: number): Promise<Duplex | null> {
    if (this.driver.portConnection) {
      const connection = await this.driver.portConnection(workspaceId, port).catch((error: Error) => {
        if (!this.fellBack.has(workspaceId)) {
          this.fellBack.add(workspaceId);
          this.log(`previews of workspace ${workspaceId} go through docker exec (slower): ${error.message}`);
        }
        return undefined;
      });
      if (connection !== undefined) {
        this.fellBack.delete(workspaceId);
        return connection;
      }
    }
    return this.execRelay(workspaceId, port);
  }

  /** A tunnel through one `docker exec` of RELAY; null when nothing listens. */
  private async execRelay(workspaceId: string, port: number): Promise<Duplex | null> {
    const proc: AttachedProcess = await this.driver.exec(
      workspaceId,
      [containerLayout.daemonNode, "-e", RELAY, String(port)],
      { backpressure: true },
    );
    // The relay writes nothing on stderr worth keeping; unread, it would hold stdout back.
    proc.stderr.resume();
    if (!(await relayConnected(proc.stdout))) {
      void proc.close();
      return null;
    }
    const tunnel = Duplex.from({ readable: proc.stdout, writable: proc.stdin });
    // Duplex.from reports an early end as an AbortError: PortStreams.open listens for errors.
    tunnel.on("error", () => undefined);
    tunnel.once("close", () => void proc.close());
    // The app closed its side: nothing written now would reach it.
    proc.stdout.once("end", () => tunnel.end());
    return tunnel;
  }
}
