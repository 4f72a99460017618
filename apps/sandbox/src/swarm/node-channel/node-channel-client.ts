import { Duplex, Readable } from "node:stream";
import { finished } from "node:stream/promises";
import tls from "node:tls";
import type {
  AttachedProcess,
  BrowserJobSpec,
  TtyProcess,
  VolumeJobSpec,
} from "../../driver/workspace-driver";
import { ServiceError } from "../../errors/service-error";
import { type ChannelRequest, type ServerControl, serverControlSchema } from "./channel-protocol";
import type { ClusterTls } from "./cluster-tls";
import { FramedSocket, FrameKind } from "./framed-socket";

/** How long connecting to the other instance and starting the operation there may take. */
const START_WAIT_MS = 60_000;
const SLICE_BYTES = 64 * 1024;
/** How long a closed process's connection may take to end over there before it is dropped. */
const CLOSE_WAIT_MS = 10_000;

/** What a connection hears once its operation started. */
interface Listeners {
  data?(payload: Buffer): void;
  stderr?(payload: Buffer): void;
  end?(kind: number): void;
  control?(message: ServerControl): void;
  closed(): void;
}

export function nodeUnavailable(nodeId: string): ServiceError {
  return new ServiceError(
    "unavailable",
    `the machine that runs this workspace (node ${nodeId}) has no coder service instance answering`,
  );
}

/**
 * The asking side of a node channel (node-channel-server.ts): runs a driver operation through the
 * instance on the workspace's node and hands back the same process objects a local engine would.
 */
export class NodeChannelClient {
  constructor(
    private readonly address: { host: string; port: number },
    private readonly cluster: ClusterTls,
    private readonly nodeId: string,
  ) {}

  exec(
    workspaceId: string,
    cmd: string[],
    options: { env?: string[]; backpressure?: boolean } = {},
  ): Promise<AttachedProcess> {
    return this.attached({ op: "exec", workspaceId, cmd, ...options });
  }

  volumeJob(workspaceId: string, spec: VolumeJobSpec): Promise<AttachedProcess> {
    return this.attached({ op: "volumeJob", workspaceId, spec });
  }

  /** Once resolved, the workspace's disk images are made (`create`) or attached (`attach`) on that node. */
  async disks(workspaceId: string, step: "create" | "attach"): Promise<void> {
    const framed = await this.open({ op: "disks", workspaceId, step }, { closed: () => undefined });
    framed.close();
  }

  /** Once resolved, the egress firewall rules are set on that node (the workspace has egress). */
  async egress(workspaceId: string): Promise<void> {
    const framed = await this.open({ op: "egress", workspaceId }, { closed: () => undefined });
    framed.close();
  }

  /** Once resolved, what the removed workspace left on that node is gone. */
  async removeLeftovers(workspaceId: string): Promise<void> {
    const framed = await this.open({ op: "removeLeftovers", workspaceId }, { closed: () => undefined });
    framed.close();
  }

  async execTty(
    workspaceId: string,
    cmd: string[],
    size: { cols: number; rows: number },
  ): Promise<TtyProcess> {
    let framed: FramedSocket | undefined;
    const stream: Duplex = new Duplex({
      read: () => framed?.unblock(stream),
      write: (chunk: Buffer, _encoding, done) => void sendSliced(framed, chunk).then(() => done()),
      final: (done) => {
        framed?.send(FrameKind.end, Buffer.from([FrameKind.data]));
        done();
      },
    });
    const ended = endOnce(stream);
    framed = await this.open(
      { op: "execTty", workspaceId, cmd, ...size },
      { data: (p) => framed?.push(stream, p), end: ended, closed: ended },
    );
    const open = framed;
    return {
      stream,
      resize: async (cols, rows) => {
        open.sendControl({ type: "resize", cols, rows });
      },
      close: () => closeConnection(open),
    };
  }

  async browserJob(workspaceId: string, spec: BrowserJobSpec): Promise<{ exitCode: number; stdout: string }> {
    spec.signal?.throwIfAborted();
    const chunks: Buffer[] = [];
    let kept = 0;
    let settle:
      | { resolve(v: { exitCode: number; stdout: string }): void; reject(e: Error): void }
      | undefined;
    const answer = new Promise<{ exitCode: number; stdout: string }>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const { image, args, timeoutMs, outputLimit } = spec;
    const framed = await this.open(
      { op: "browserJob", workspaceId, spec: { image, args, timeoutMs, outputLimit } },
      {
        data: (p) => {
          // The other instance keeps only the end too; this bounds what a broken one could send.
          chunks.push(p);
          kept += p.length;
          while (kept > outputLimit && chunks.length > 1) kept -= chunks.shift()?.length ?? 0;
        },
        control: (m) => {
          if (m.type === "result")
            settle?.resolve({
              exitCode: m.exitCode,
              stdout: Buffer.concat(chunks).toString().slice(-outputLimit),
            });
          else if (m.type === "error") settle?.reject(errorOf(m));
        },
        closed: () => settle?.reject(new Error("the browser job's instance went away before it ended")),
      },
    );
    const abort = () => {
      framed.socket.destroy();
      settle?.reject(spec.signal?.reason as Error);
    };
    spec.signal?.addEventListener("abort", abort, { once: true });
    try {
      return await answer;
    } finally {
      spec.signal?.removeEventListener("abort", abort);
    }
  }

  private async attached(request: ChannelRequest): Promise<AttachedProcess> {
    let framed: FramedSocket | undefined;
    const stdout: Readable = new Readable({ read: () => framed?.unblock(stdout) });
    const stderr: Readable = new Readable({ read: () => framed?.unblock(stderr) });
    const endStdout = endOnce(stdout);
    const endStderr = endOnce(stderr);
    let exit: (code: number | null) => void = () => undefined;
    const exited = new Promise<number | null>((resolve) => {
      exit = (code) => {
        endStdout();
        endStderr();
        // What was received reaches a reader before the exit code does, as from a local engine.
        const flowing = [stdout, stderr].filter((s) => s.readableFlowing);
        void Promise.all(flowing.map((s) => finished(s).catch(() => undefined))).then(() => resolve(code));
      };
    });
    // Without `backpressure` a caller may leave one stream unread, as with a local engine (where
    // it piles up): holding the connection for it would stall the other stream too.
    const held = request.op === "exec" && request.backpressure === true;
    const push = (target: Readable, p: Buffer) => (held ? framed?.push(target, p) : target.push(p));
    framed = await this.open(request, {
      data: (p) => push(stdout, p),
      stderr: (p) => push(stderr, p),
      end: (kind) => (kind === FrameKind.stderr ? endStderr() : endStdout()),
      control: (m) => {
        if (m.type === "exit") exit(m.code);
      },
      closed: () => exit(null),
    });
    const open = framed;
    const stdin = new Duplex({
      read: () => undefined,
      write: (chunk: Buffer, _encoding, done) => void sendSliced(open, chunk).then(() => done()),
      final: (done) => {
        open.send(FrameKind.end, Buffer.from([FrameKind.data]));
        done();
      },
    });
    return { stdin, stdout, stderr, exited, close: () => closeConnection(open) };
  }

  /**
   * Connects, sends the request and waits until the operation runs over there; rejects with the
   * other instance's refusal, or with `unavailable` when it cannot be reached.
   */
  private open(request: ChannelRequest, listeners: Listeners): Promise<FramedSocket> {
    return new Promise((resolve, reject) => {
      let started = false;
      const fail = (err: Error) => {
        if (started) return;
        started = true;
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      const timer = setTimeout(() => fail(nodeUnavailable(this.nodeId)), START_WAIT_MS);
      const socket = tls.connect({
        host: this.address.host,
        port: this.address.port,
        ...this.cluster,
        minVersion: "TLSv1.3",
      });
      const framed = new FramedSocket(socket, (kind, payload) => {
        if (kind === FrameKind.control) {
          const parsed = serverControlSchema.safeParse(parseJson(payload));
          if (!parsed.success) return socket.destroy(new Error("the other instance sent an invalid message"));
          const message = parsed.data;
          if (!started) {
            if (message.type === "started") {
              started = true;
              clearTimeout(timer);
              resolve(framed);
            } else
              fail(
                message.type === "error"
                  ? errorOf(message)
                  : new Error("the other instance answered out of order"),
              );
            return;
          }
          listeners.control?.(message);
        } else if (!started) socket.destroy(new Error("the other instance sent output before starting"));
        else if (kind === FrameKind.data) listeners.data?.(payload);
        else if (kind === FrameKind.stderr) listeners.stderr?.(payload);
        else if (kind === FrameKind.end) listeners.end?.(payload[0] ?? 0);
        else socket.destroy(new Error("the other instance sent an unknown frame"));
      });
      socket.once("secureConnect", () => framed.sendControl(request));
      socket.on("error", () => fail(nodeUnavailable(this.nodeId)));
      socket.once("close", () => {
        fail(nodeUnavailable(this.nodeId));
        listeners.closed();
      });
    });
  }
}

function errorOf(message: Extract<ServerControl, { type: "error" }>): Error {
  return message.kind ? new ServiceError(message.kind, message.message) : new Error(message.message);
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Ends a readable once, whichever of its end or its connection's close comes first. */
function endOnce(stream: Readable): () => void {
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    stream.push(null);
  };
}

/** Sends bytes as data frames, resolving once the socket takes more (backpressure for the writer). */
async function sendSliced(framed: FramedSocket | undefined, chunk: Buffer): Promise<void> {
  if (!framed) return;
  for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
    if (!framed.send(FrameKind.data, chunk.subarray(at, at + SLICE_BYTES))) await framed.drained();
  }
}

/**
 * Asks the other instance to end the process; resolves once the connection closed, or drops it after
 * CLOSE_WAIT_MS (output nobody reads any more may hold the other side's last frames). Never rejects.
 */
function closeConnection(framed: FramedSocket): Promise<void> {
  if (framed.socket.destroyed) return Promise.resolve();
  const closed = new Promise<void>((resolve) => {
    const timer = setTimeout(() => framed.socket.destroy(), CLOSE_WAIT_MS);
    framed.socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  framed.sendControl({ type: "close" });
  return closed;
}
