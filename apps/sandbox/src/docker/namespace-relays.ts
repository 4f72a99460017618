import { type ChildProcess, spawn } from "node:child_process";
import { open, readFile, stat } from "node:fs/promises";
import net from "node:net";
import type Docker from "dockerode";
import { containerName } from "./container-spec";

/** Who the relay runs as once in the namespace: nobody, with no capability and no group. */
const NOBODY = 65534;
/** How long a new relay may take to say it is in the workspace's network namespace. */
const RELAY_START_MS = 15_000;
/** Connections one relay may be asked for at once; the service's own bound (MAX_TUNNELS_PER_WORKSPACE) is lower. */
const MAX_PENDING = 128;
/** The most of a failed relay's standard error kept for its message. */
const MAX_STDERR = 2048;

/**
 * The relay (node, trusted code passed by the service, run under nsenter in the workspace's network
 * namespace as nobody): says it is ready, then for each `{n, port}` it is sent connects to
 * 127.0.0.1:<port> without Nagle's delay and, once connected, hands the socket itself to the service
 * through the IPC channel (its file descriptor, SCM_RIGHTS) without reading a byte of it (it is
 * paused before it connects); nothing listening: `{n, ok: false}`. It ends with the service.
 */
const RELAY = `const net=require("net");
process.on("disconnect",()=>process.exit(0));
process.on("message",(m)=>{const n=m&&m.n,port=m&&m.port;
if(!Number.isInteger(n)||!Number.isInteger(port)||port<1||port>65535)return;
const s=net.connect({port,host:"127.0.0.1",noDelay:true});s.pause();
s.once("error",()=>{s.destroy();process.send({n,ok:false});});
s.once("connect",()=>{s.removeAllListeners("error");s.on("error",()=>s.destroy());process.send({n,ok:true},s);});});
process.send({ready:true});`;

interface Waiting {
  resolve: (socket: net.Socket | null) => void;
  reject: (error: Error) => void;
}

/** One relay process in one workspace start's network namespace, and the connections asked of it. */
class NamespaceRelay {
  private next = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly child: ChildProcess,
    /** The workspace start (State.StartedAt) whose namespace it is in: a restart makes a new one. */
    readonly of: string,
  ) {
    child.on("message", (message: unknown, handle: unknown) => this.answered(message, handle));
    // A send to a relay that just ended fails through its callback; nothing else is worth a crash.
    child.on("error", () => undefined);
    // Neither the relay nor its channel keeps the service's process alive.
    child.unref();
    child.channel?.unref();
    child.once("exit", () => {
      for (const waiting of this.waiting.values()) waiting.reject(new Error("the preview relay ended"));
      this.waiting.clear();
    });
  }

  get alive(): boolean {
    return this.child.connected;
  }

  /** A socket connected to 127.0.0.1:<port> in the namespace, or null when nothing listens there. */
  connect(port: number): Promise<net.Socket | null> {
    if (!this.child.connected) return Promise.reject(new Error("the preview relay ended"));
    if (this.waiting.size >= MAX_PENDING)
      return Promise.reject(new Error("too many preview connections at once"));
    const n = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(n, { resolve, reject });
      this.child.send({ n, port }, (error) => {
        if (!error) return;
        this.waiting.delete(n);
        reject(error);
      });
    });
  }

  end(): void {
    this.child.kill("SIGKILL");
  }

  private answered(message: unknown, handle: unknown): void {
    const { n, ok } = (message ?? {}) as { n?: unknown; ok?: unknown };
    const waiting = typeof n === "number" ? this.waiting.get(n) : undefined;
    if (!waiting) {
      if (handle instanceof net.Socket) handle.destroy();
      return;
    }
    this.waiting.delete(n as number);
    if (ok === true && handle instanceof net.Socket) {
      handle.setNoDelay(true);
      waiting.resolve(handle);
    } else waiting.resolve(null);
  }
}

/**
 * Preview connections made in each workspace's own network namespace by a small process of the
 * service (node under nsenter, as nobody), which hands every connected socket over to the service:
 * the service then reads and writes the app's socket itself, with no process between them. A relay
 * starts at a workspace's first connection and lives while the workspace runs; one of an earlier
 * start (a restart makes a new namespace) or a dead one is replaced. The service must run as root
 * on the engine's host (it enters the namespace of the workspace's process as the host sees it);
 * elsewhere, the relay containers of port-relay.ts.
 */
export class NamespaceRelays {
  private readonly relays = new Map<string, Promise<NamespaceRelay>>();

  constructor(
    private readonly docker: Docker,
    private readonly instance: string,
  ) {}

  /**
   * A socket connected to 127.0.0.1:<port> in the workspace's network namespace, or null when
   * nothing listens there. Rejects when the workspace does not run or no relay can start in it.
   */
  async connect(id: string, port: number): Promise<net.Socket | null> {
    for (let attempt = 0; ; attempt++) {
      const relay = await this.relay(id);
      try {
        const socket = await relay.connect(port);
        if (socket || attempt > 0 || !(await this.stale(id, relay))) return socket;
      } catch (error) {
        // The relay died: once, a new one.
        if (attempt > 0) throw error;
      }
      await this.retire(id, relay);
    }
  }

  /** Ends the workspace's relay (it stopped or goes). */
  async remove(id: string): Promise<void> {
    const pending = this.relays.get(id);
    this.relays.delete(id);
    (await pending?.catch(() => undefined))?.end();
  }

  /** Ends every relay (the service stops). */
  close(): void {
    for (const id of [...this.relays.keys()]) void this.remove(id);
  }

  /** Ends `relay`, and forgets it if it is still the workspace's. */
  private async retire(id: string, relay: NamespaceRelay): Promise<void> {
    relay.end();
    const pending = this.relays.get(id);
    if (pending && (await pending.catch(() => undefined)) === relay && this.relays.get(id) === pending) {
      this.relays.delete(id);
    }
  }

  /** The workspace's live relay: the known one, or a new one when there is none or it ended. */
  private async relay(id: string): Promise<NamespaceRelay> {
    const known = await this.relays.get(id)?.catch(() => undefined);
    if (known?.alive) return known;
    if (known) await this.retire(id, known);
    let pending = this.relays.get(id);
    if (!pending) {
      pending = this.start(id);
      this.relays.set(id, pending);
      const started = pending;
      started.catch(() => {
        if (this.relays.get(id) === started) this.relays.delete(id);
      });
    }
    return pending;
  }

  /** Whether the workspace started again since the relay entered its namespace. */
  private async stale(id: string, relay: NamespaceRelay): Promise<boolean> {
    const info = await this.docker.getContainer(containerName(this.instance, id)).inspect();
    return info.State.StartedAt !== relay.of;
  }

  /**
   * A relay in the namespace of the workspace's current start. The namespace of the workspace's
   * first process (State.Pid) is opened, that process is checked to be in the workspace's cgroup
   * (a service in a pid namespace of its own would see another process under that number), then
   * the workspace is asked again: the same start, still running, the same process, which therefore
   * lived through the open and is what was opened (never a process that took its number after it).
   * The relay enters the namespace through that open file.
   */
  private async start(id: string): Promise<NamespaceRelay> {
    const container = this.docker.getContainer(containerName(this.instance, id));
    const before = await container.inspect();
    if (!before.State.Running || !before.State.Pid) throw new Error("the workspace is not running");
    const pid = before.State.Pid;
    const namespace = await open(`/proc/${pid}/ns/net`, "r").catch((error: Error) => {
      throw new Error(`the workspace's network namespace cannot be opened: ${error.message}`);
    });
    try {
      const cgroup = await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => "");
      if (!cgroup.includes(before.Id)) {
        throw new Error(
          "the workspace's process is not in this service's view of processes (a service in a container needs CODER_PREVIEW_RELAY=container)",
        );
      }
      const after = await container.inspect();
      if (
        !after.State.Running ||
        after.State.StartedAt !== before.State.StartedAt ||
        after.State.Pid !== pid
      ) {
        throw new Error("the workspace restarted while its preview relay started; try again");
      }
      // Never the service's own namespace, whatever the process turned out to be.
      const [opened, own] = await Promise.all([namespace.stat(), stat("/proc/self/ns/net")]);
      if (opened.ino === own.ino && opened.dev === own.dev) {
        throw new Error("the workspace's network namespace is the service's own");
      }
      const child = spawn(
        "nsenter",
        [
          "--net=/proc/self/fd/3",
          `--setgid=${NOBODY}`,
          `--setuid=${NOBODY}`,
          "--",
          process.execPath,
          "--max-old-space-size=32",
          "-e",
          RELAY,
        ],
        {
          stdio: ["ignore", "ignore", "pipe", namespace.fd, "ipc"],
          env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
        },
      );
      return await ready(child, before.State.StartedAt);
    } finally {
      await namespace.close();
    }
  }
}

/** Resolves once the relay says it is ready; its standard error is the reason when it ends first. */
function ready(child: ChildProcess, of: string): Promise<NamespaceRelay> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.toString().slice(0, MAX_STDERR - stderr.length);
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      done(new Error("the preview relay did not start"));
    }, RELAY_START_MS);
    const onMessage = (message: unknown) => {
      if ((message as { ready?: unknown } | null)?.ready === true) done(null);
    };
    const onExit = () =>
      done(
        new Error(
          `the preview relay cannot enter the workspace's network namespace: ${stderr.trim() || "it ended"}`,
        ),
      );
    const onError = (error: Error) => done(new Error(`the preview relay cannot start: ${error.message}`));
    const done = (error: Error | null) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      child.off("error", onError);
      if (error) reject(error);
      else resolve(new NamespaceRelay(child, of));
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}
