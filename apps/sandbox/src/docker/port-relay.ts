import { randomBytes, timingSafeEqual } from "node:crypto";
import { chown, mkdir, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { containerLayout } from "@coder/protocol";
import type Docker from "dockerode";
import type { ContainerCreateOptions } from "dockerode";
import {
  containerName,
  type HardeningOptions,
  hardenedHostConfig,
  LABEL_INSTANCE,
  LABEL_MANAGED,
} from "./container-spec";
import { statusCode } from "./engine-errors";
import { LABEL_JOB } from "./volume-job";

/** The workspace start (State.StartedAt) a relay shares the network namespace of: a restart makes a new one. */
const LABEL_RELAY_OF = "dev.coder.relay-of";
/** The relay's greeting key (see RELAY): what proves the socket's listener is the relay. */
const LABEL_RELAY_KEY = "dev.coder.relay-key";

/** Where the socket folder is mounted in the relay container. */
const RELAY_DIR = "/run/coder-relay";
const SOCKET_NAME = "relay.sock";
/** Connections one relay holds at once; the service's own bound (MAX_TUNNELS_PER_WORKSPACE) is lower. */
export const RELAY_MAX_CONNECTIONS = 128;
/** How long a new relay may take to listen on its socket. */
const RELAY_START_MS = 15_000;
/** The longest port line: five digits and the newline. */
const MAX_PORT_LINE = 6;

/**
 * The relay (node, trusted code passed by the service; the socket path as its argument, its key in
 * RELAY_KEY): listens on a unix socket in a folder only it mounts; per connection reads one line, a
 * port, connects to 127.0.0.1:<port> in the workspace's network namespace, answers the key and "+"
 * once connected (nothing listens: closes without a byte), then pipes both ways with half-close and
 * backpressure, without Nagle's delay toward the app (a request's head and body, written apart, would
 * otherwise wait for the app's delayed acknowledgement); a connection that ends before its port line
 * is closed (it would count against the bound for good). The key proves to the service that the
 * relay answers, not whatever the socket's path was swapped for.
 */
const RELAY = String.raw`const net=require("net"),fs=require("fs");
const sock=process.argv[1],key=process.env.RELAY_KEY;delete process.env.RELAY_KEY;
try{fs.unlinkSync(sock)}catch{}
const server=net.createServer({allowHalfOpen:true},(c)=>{
let line="";c.on("error",()=>c.destroy());
const onData=(d)=>{line+=d.toString("latin1");const nl=line.indexOf("\n");
if(nl<0){if(line.length>${MAX_PORT_LINE})c.destroy();return;}
c.off("data",onData);c.off("end",onEnd);c.pause();const text=line.slice(0,nl),port=+text;
if(!/^[0-9]{1,5}$/.test(text)||port<1||port>65535)return c.destroy();
if(nl+1<line.length)c.unshift(Buffer.from(line.slice(nl+1),"latin1"));
const s=net.connect({port,host:"127.0.0.1",allowHalfOpen:true,noDelay:true});
s.on("error",()=>{s.destroy();c.destroy();});
s.once("connect",()=>{c.write(key+"+");s.pipe(c);c.pipe(s);c.resume();});
s.once("close",()=>{if(!s.readableEnded)c.destroy();});
c.once("close",()=>{if(!c.readableEnded)s.destroy();});};
// Ended before its port line (the service's probe of the socket): nothing to keep open for.
const onEnd=()=>c.destroy();c.once("end",onEnd);c.on("data",onData);});
server.maxConnections=${RELAY_MAX_CONNECTIONS};
server.listen(sock);`;

/** A running relay as the service reaches it. */
interface Relay {
  socket: string;
  key: Buffer;
  /** The workspace start it belongs to. */
  of: string;
}

/** The relay container's name beside workspace `id`. */
function relayName(instance: string, id: string): string {
  return `${containerName(instance, id)}-relay`;
}

/**
 * Who the relay runs as: the workspace's user, as the brief of a workspace job; a service that is
 * not root cannot give its folder to that user, so there the relay runs as the service's own user.
 */
function relayUid(): number {
  const uid = process.getuid?.() ?? 0;
  return uid === 0 ? containerLayout.user.uid : uid;
}

/**
 * The create options of the relay beside workspace `id`: the workspace's hardening with tighter
 * bounds, the workspace's image (it has node), only the workspace container's network namespace
 * (never a network of its own, never the host's), and one host folder, its socket's. The labels
 * make `remove(id)` and `removeAll()` take it with the workspace's jobs.
 */
export function relaySpec(
  id: string,
  relay: { image: string; of: string; key: string; folder: string },
  opts: HardeningOptions,
): ContainerCreateOptions {
  const uid = relayUid();
  return {
    name: relayName(opts.instance, id),
    Image: relay.image,
    Cmd: [containerLayout.daemonNode, "-e", RELAY, path.posix.join(RELAY_DIR, SOCKET_NAME)],
    User: `${uid}:${uid}`,
    WorkingDir: "/",
    Env: ["LANG=C.UTF-8", `RELAY_KEY=${relay.key}`],
    Labels: {
      [LABEL_MANAGED]: "true",
      [LABEL_INSTANCE]: opts.instance,
      [LABEL_JOB]: id,
      [LABEL_RELAY_OF]: relay.of,
      [LABEL_RELAY_KEY]: relay.key,
    },
    HostConfig: {
      ...hardenedHostConfig(opts),
      NetworkMode: `container:${containerName(opts.instance, id)}`,
      Mounts: [{ Type: "bind", Source: relay.folder, Target: RELAY_DIR }],
      PidsLimit: 64,
      Memory: 256 * 1024 * 1024,
      MemorySwap: 256 * 1024 * 1024,
      LogConfig: { Type: "none", Config: {} },
    },
  };
}

/**
 * Reads the relay's greeting: true once it is the key and "+" (the rest put back), false on a close
 * without a byte; anything else rejects (the socket is not the relay's).
 */
function greeted(socket: net.Socket, key: Buffer): Promise<boolean> {
  const expected = Buffer.concat([key, Buffer.from("+")]);
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const done = (error: Error | null, connected = false) => {
      socket.off("readable", onReadable);
      socket.off("end", onEnd);
      socket.off("error", onError);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve(connected);
    };
    const notRelay = () => done(new Error("the preview relay's socket answered something else"));
    const onEnd = () => (got.length === 0 ? done(null, false) : notRelay());
    const onError = (error: Error) => done(error);
    const onReadable = () => {
      for (let chunk: Buffer | null = socket.read(); chunk !== null; chunk = socket.read()) {
        got = Buffer.concat([got, chunk]);
        const head = got.subarray(0, expected.length);
        if (!timingSafeEqual(head, expected.subarray(0, head.length))) return notRelay();
        if (got.length < expected.length) continue;
        if (got.length > expected.length) socket.unshift(got.subarray(expected.length));
        return done(null, true);
      }
    };
    socket.on("readable", onReadable);
    socket.once("end", onEnd);
    socket.once("error", onError);
  });
}

/**
 * Per-workspace relay containers (RELAY) and the connections through them: what makes a preview's
 * connection a unix socket to a process in the workspace's network namespace instead of a `docker
 * exec` through the engine. A relay starts at a workspace's first connection and stays while the
 * workspace runs; a relay of an earlier start (the workspace restarted: a new network namespace)
 * or a dead one is replaced; after a service restart the running one is found again.
 */
export class PortRelays {
  private readonly relays = new Map<string, Promise<Relay>>();

  constructor(
    private readonly docker: Docker,
    private readonly opts: HardeningOptions,
    /** Host folder of the relays' socket folders (the engine's host must be the service's). */
    private readonly dir: string,
  ) {}

  /**
   * A socket connected to 127.0.0.1:<port> in the workspace's network namespace, or null when
   * nothing listens there. Rejects when the workspace does not run or its relay cannot start.
   */
  async connect(id: string, port: number): Promise<net.Socket | null> {
    for (let attempt = 0; ; attempt++) {
      const pending = this.relay(id);
      const relay = await pending;
      try {
        const socket = await this.dial(relay, port);
        if (socket || attempt > 0 || !(await this.stale(id, relay))) return socket;
      } catch (error) {
        // The relay died or its folder went: once, a new one.
        if (attempt > 0) throw error;
      }
      if (this.relays.get(id) === pending) this.relays.delete(id);
    }
  }

  /** Removes the workspace's relay and its socket folder (it stopped or goes). */
  async remove(id: string): Promise<void> {
    const pending = this.relays.get(id);
    this.relays.delete(id);
    await pending?.catch(() => undefined);
    await this.removeContainer(id);
    await rm(path.join(this.dir, id), { recursive: true, force: true });
  }

  private relay(id: string): Promise<Relay> {
    let pending = this.relays.get(id);
    if (!pending) {
      pending = this.start(id);
      this.relays.set(id, pending);
      pending.catch(() => {
        if (this.relays.get(id) === pending) this.relays.delete(id);
      });
    }
    return pending;
  }

  private dial(relay: Relay, port: number): Promise<net.Socket | null> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(relay.socket);
      socket.once("error", reject);
      socket.write(`${port}\n`);
      greeted(socket, relay.key).then((connected) => {
        socket.off("error", reject);
        if (connected) return resolve(socket);
        socket.destroy();
        resolve(null);
      }, reject);
    });
  }

  /** Whether the workspace started again since the relay joined it (its loopback is another now). */
  private async stale(id: string, relay: Relay): Promise<boolean> {
    const info = await this.docker.getContainer(containerName(this.opts.instance, id)).inspect();
    return info.State.StartedAt !== relay.of;
  }

  /** The relay of the workspace's current start: the running one found again, or a new one. */
  private async start(id: string): Promise<Relay> {
    const workspace = await this.docker.getContainer(containerName(this.opts.instance, id)).inspect();
    if (!workspace.State.Running) throw new Error("the workspace is not running");
    const of = workspace.State.StartedAt;
    const found = await this.docker
      .getContainer(relayName(this.opts.instance, id))
      .inspect()
      .catch((error) => {
        if (statusCode(error) === 404) return undefined;
        throw error;
      });
    const folder = found?.Mounts.find((m) => m.Destination === RELAY_DIR)?.Source;
    const key = found?.Config.Labels[LABEL_RELAY_KEY];
    if (found?.State.Running && found.Config.Labels[LABEL_RELAY_OF] === of && folder && key) {
      const relay = { socket: path.join(folder, SOCKET_NAME), key: Buffer.from(key), of };
      if (await this.answers(relay.socket)) return relay;
    }
    if (found) await this.removeContainer(id);

    const fresh = path.join(this.dir, id);
    await rm(fresh, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await mkdir(fresh, { mode: 0o700 });
    if (process.getuid?.() === 0) await chown(fresh, relayUid(), relayUid());
    const newKey = randomBytes(16).toString("hex");
    const container = await this.docker.createContainer(
      relaySpec(id, { image: workspace.Config.Image, of, key: newKey, folder: fresh }, this.opts),
    );
    await container.start();
    const relay = { socket: path.join(fresh, SOCKET_NAME), key: Buffer.from(newKey), of };
    const deadline = Date.now() + RELAY_START_MS;
    while (!(await this.answers(relay.socket))) {
      if (Date.now() > deadline) {
        await this.removeContainer(id);
        throw new Error("the preview relay of the workspace did not start");
      }
      await sleep(20);
    }
    return relay;
  }

  /** Whether something accepts connections on the socket. */
  private answers(socket: string): Promise<boolean> {
    return new Promise((resolve) => {
      const probe = net.connect(socket);
      probe.once("connect", () => {
        probe.destroy();
        resolve(true);
      });
      probe.once("error", () => resolve(false));
    });
  }

  private async removeContainer(id: string): Promise<void> {
    await this.docker
      .getContainer(relayName(this.opts.instance, id))
      .remove({ force: true })
      .catch((error) => {
        if (statusCode(error) !== 404) throw error;
      });
  }
}
