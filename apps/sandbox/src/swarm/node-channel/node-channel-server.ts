import type { AddressInfo } from "node:net";
import type { Writable } from "node:stream";
import tls from "node:tls";
import type { WorkspaceDriver } from "../../driver/workspace-driver";
import { ServiceError } from "../../errors/service-error";
import { type ChannelRequest, channelRequestSchema, clientControlSchema } from "./channel-protocol";
import type { ClusterTls } from "./cluster-tls";
import { FramedSocket, FrameKind } from "./framed-socket";

/** The instance's own driver, as far as the channel uses it. */
export interface NodeLocalDriver
  extends Pick<WorkspaceDriver, "exec" | "execTty" | "volumeJob" | "browserJob"> {
  removeLeftovers(id: string): Promise<void>;
  disksHere(id: string, step: "create" | "attach"): Promise<void>;
  egressHere(id: string): Promise<void>;
  /** This instance's Swarm node. */
  readonly nodeId: string;
  /** The node the workspace is pinned to, once placed. */
  nodeOfWorkspace(id: string): Promise<string | undefined>;
}

/** How long a new connection may take to name its request. */
const REQUEST_WAIT_MS = 10_000;
const MAX_CONNECTIONS = 2000;

/** What a connection's operation does with what the asking instance sends after the request. */
interface Running {
  input?: Writable;
  resize?(cols: number, rows: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The node channel (docs/architecture.md "Swarm"): the other instances of the swarm run a
 * workspace's processes on this node through it. Mutual TLS with the cluster's CA only: whoever
 * connects is an instance, which checked the person at its own door. Each connection names one
 * driver operation on one workspace; it is run only when the workspace is pinned to this node, and
 * the connection then carries that operation's streams until either side closes.
 */
export class NodeChannelServer {
  private readonly sockets = new Set<tls.TLSSocket>();

  private constructor(
    private readonly server: tls.Server,
    private readonly driver: NodeLocalDriver,
    private readonly log: (line: string) => void,
  ) {
    server.on("secureConnection", (socket) => this.accept(socket));
    // A peer without a cluster certificate fails the handshake: nothing of it reaches `accept`.
    server.on("tlsClientError", () => undefined);
  }

  static async listen(
    cluster: ClusterTls,
    port: number,
    driver: NodeLocalDriver,
    log: (line: string) => void,
  ): Promise<NodeChannelServer> {
    const server = tls.createServer({
      ...cluster,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: "TLSv1.3",
      handshakeTimeout: REQUEST_WAIT_MS,
    });
    server.maxConnections = MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new NodeChannelServer(server, driver, log);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private accept(socket: tls.TLSSocket): void {
    this.sockets.add(socket);
    socket.on("error", () => undefined);
    let running: Running | undefined;
    let asked = false;
    /** The asking instance ended the operation before it had started. */
    let closeAsked = false;
    const timer = setTimeout(() => socket.destroy(), REQUEST_WAIT_MS);
    const framed = new FramedSocket(socket, (kind, payload) => {
      if (!asked) {
        asked = true;
        clearTimeout(timer);
        const request = kind === FrameKind.control ? parseRequest(payload) : undefined;
        if (!request) return socket.destroy();
        void this.run(request, framed).then((r) => {
          running = r;
          if (socket.destroyed || closeAsked) void r?.close();
        });
        return;
      }
      if (kind === FrameKind.data && running?.input) framed.deliver(running.input, payload);
      else if (kind === FrameKind.end) running?.input?.end();
      else if (kind === FrameKind.control) {
        const control = clientControlSchema.safeParse(parseJson(payload));
        if (!control.success) return socket.destroy();
        if (control.data.type === "resize") void running?.resize?.(control.data.cols, control.data.rows);
        else if (running) void running.close();
        else closeAsked = true;
      } else socket.destroy();
    });
    socket.once("close", () => {
      clearTimeout(timer);
      this.sockets.delete(socket);
      void running?.close();
    });
  }

  /** Starts the operation and wires its output to the connection; undefined when it was refused. */
  private async run(request: ChannelRequest, framed: FramedSocket): Promise<Running | undefined> {
    try {
      const node = await this.driver.nodeOfWorkspace(request.workspaceId);
      if (request.op === "removeLeftovers") {
        if (node !== undefined) throw new ServiceError("conflict", "that workspace still exists");
        await this.driver.removeLeftovers(request.workspaceId);
        framed.sendControl({ type: "started" });
        framed.close();
        return undefined;
      }
      if (node !== this.driver.nodeId)
        throw new ServiceError("forbidden", "that workspace does not run on this instance's node");
      if (request.op === "disks" || request.op === "egress") {
        if (request.op === "disks") await this.driver.disksHere(request.workspaceId, request.step);
        else await this.driver.egressHere(request.workspaceId);
        framed.sendControl({ type: "started" });
        framed.close();
        return undefined;
      }
      return await this.start(request, framed);
    } catch (err) {
      const kind = err instanceof ServiceError ? err.kind : undefined;
      if (!kind) this.log(`node channel: ${request.op} on ${request.workspaceId}: ${(err as Error).message}`);
      framed.sendControl({
        type: "error",
        ...(kind ? { kind } : {}),
        message: (err as Error).message.slice(0, 4096),
      });
      framed.close();
      return undefined;
    }
  }

  private async start(
    request: Exclude<ChannelRequest, { op: "removeLeftovers" | "disks" | "egress" }>,
    framed: FramedSocket,
  ): Promise<Running> {
    const { workspaceId: id } = request;
    switch (request.op) {
      case "exec":
      case "volumeJob": {
        const process =
          request.op === "exec"
            ? await this.driver.exec(id, request.cmd, {
                ...(request.env ? { env: request.env } : {}),
                ...(request.backpressure ? { backpressure: true } : {}),
              })
            : await this.driver.volumeJob(id, request.spec);
        framed.sendControl({ type: "started" });
        const streams = Promise.all([
          framed.pump(process.stdout, FrameKind.data),
          framed.pump(process.stderr, FrameKind.stderr),
        ]);
        void Promise.all([process.exited, streams]).then(([code]) => {
          framed.sendControl({ type: "exit", code });
          framed.close();
        });
        return { input: process.stdin, close: () => process.close() };
      }
      case "execTty": {
        const tty = await this.driver.execTty(id, request.cmd, { cols: request.cols, rows: request.rows });
        framed.sendControl({ type: "started" });
        void framed.pump(tty.stream, FrameKind.data).then(() => framed.close());
        return {
          input: tty.stream,
          resize: (cols, rows) => tty.resize(cols, rows),
          close: () => tty.close(),
        };
      }
      case "browserJob": {
        const abort = new AbortController();
        framed.sendControl({ type: "started" });
        void this.driver.browserJob(id, { ...request.spec, signal: abort.signal }).then(
          async ({ exitCode, stdout }) => {
            const bytes = Buffer.from(stdout);
            for (let at = 0; at < bytes.length; at += 64 * 1024) {
              if (!framed.send(FrameKind.data, bytes.subarray(at, at + 64 * 1024))) await framed.drained();
            }
            framed.sendControl({ type: "result", exitCode });
            framed.close();
          },
          (err: Error) => {
            framed.sendControl({ type: "error", message: err.message.slice(0, 4096) });
            framed.close();
          },
        );
        return { close: async () => abort.abort(new Error("the asking instance went away")) };
      }
    }
  }

  /** Stops listening and drops every connection (their processes are closed). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
}

function parseRequest(payload: Buffer): ChannelRequest | undefined {
  const parsed = channelRequestSchema.safeParse(parseJson(payload));
  return parsed.success ? parsed.data : undefined;
}
