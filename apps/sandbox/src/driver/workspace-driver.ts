import type { Duplex, Readable } from "node:stream";
import type { StepListener } from "./step-report";

/** Where the container actually is, as the engine reports it. */
export type ContainerState = "running" | "stopped" | "missing";

export interface WorkspaceSpec {
  id: string;
  image: string;
  egress: boolean;
  /**
   * Made ahead for the warm pool (warm-pool.ts), before anyone asked for it: marked so a restarted
   * service finds it again. Nothing else differs from any other workspace.
   */
  spare?: boolean;
}

/** A workspace made as a spare, claimed since or not (the database says which). */
export interface SpareWorkspace {
  id: string;
  state: ContainerState;
  createdAt: Date;
}

/** A process started in a workspace with its stdio attached (no TTY). */
export interface AttachedProcess {
  stdin: Duplex;
  stdout: Readable;
  stderr: Readable;
  /** Resolves with the exit code once the process ended (null when unknown). */
  exited: Promise<number | null>;
  /**
   * Ends the process: EOF on stdin, then signals if it does not exit. Resolves once it has ended
   * (or its workspace stopped); never rejects.
   */
  close(): Promise<void>;
}

/** A process on a TTY (terminals): one byte stream both ways, resizable. */
export interface TtyProcess {
  stream: Duplex;
  resize(cols: number, rows: number): Promise<void>;
  /** Ends the process (a TTY hears nothing from a closed stream, so it is signalled); never rejects. */
  close(): Promise<void>;
}

/** A short-lived container beside a workspace that works on its files (see `volumeJob`). */
export interface VolumeJobSpec {
  /** The workspace's image: the job runs the same programs the workspace would. */
  image: string;
  cmd: string[];
  /** `egress`: the filtered egress network (a clone); `none`: no network at all. */
  network: "none" | "egress";
  env?: string[];
  /** The job only reads the files (an export): the volume is mounted read-only. */
  readOnly?: boolean;
}

/**
 * A browser beside a running workspace (see `browserJob`): it loads pages the workspace serves and
 * prints what it saw.
 */
export interface BrowserJobSpec {
  /** The browser image (images/browser). */
  image: string;
  /** The image's arguments: the page to load and the bounds of the answer. */
  args: string[];
  /** The job is killed then, whatever it is doing. */
  timeoutMs: number;
  /** The most of its standard output kept (the end of it). */
  outputLimit: number;
  /** Its abort kills the job at once (a cancelled turn), rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** How the service follows a create or start under way. */
export interface BringUpOptions {
  /** Its abort stops the work at the next step (rejecting). */
  signal?: AbortSignal;
  /**
   * Hears each step in words for a person, and while a wait of one is slow, what it waits for and
   * for how long so far (see StepReport).
   */
  onStep?: StepListener;
}

/** A workspace as the engine sees it. */
export interface WorkspaceState {
  id: string;
  state: ContainerState;
  /**
   * Why a workspace that is not running cannot run where it is, for a person, when the driver knows
   * (a Swarm node drained or lost).
   */
  detail?: string;
}

export interface DriverEvent {
  workspaceId: string;
  state: ContainerState;
  /** As `WorkspaceState.detail`. */
  detail?: string;
}

/**
 * The seam between the service and where workspaces run: the only way the service reaches a
 * workspace's container. The Docker implementation (docker/) drives a Docker engine; another one (say
 * Kubernetes pods) implements the same calls and is chosen in ../create-driver.ts.
 */
export interface WorkspaceDriver {
  /** Resolves once the place workspaces run answers; rejects with a plain message for a person. */
  ready(): Promise<void>;
  /**
   * At service start, before any workspace starts: puts back what earlier runs of this instance left
   * half done (egress rules, say). Rejects with a plain message when it cannot; the service runs on.
   */
  prepare(): Promise<void>;
  /**
   * Frees what earlier runs of this instance left on the host that nothing can use again (loop
   * devices still holding deleted disk images). The service runs it beside its start, not before,
   * and waits for it when it closes. Optional: a driver that leaves nothing of the kind leaves it out.
   */
  reclaimLeftovers?(): Promise<void>;
  /**
   * Makes the workspace's volumes and container. An abort of `signal` stops it at the next step
   * (rejecting); what it made stays for `remove`.
   */
  create(spec: WorkspaceSpec, options?: BringUpOptions): Promise<void>;
  /** Starts the container; an abort of `signal` stops it before the next step (rejecting). */
  start(id: string, options?: BringUpOptions): Promise<void>;
  stop(id: string): Promise<void>;
  /**
   * Removes everything of the workspace: the jobs working on its files, its container, its volumes
   * and what backs them, also the pieces of a creation cut short. Missing pieces are not an error.
   */
  remove(id: string): Promise<void>;
  /**
   * Removes everything this service instance made: every workspace with its volumes, and what they
   * shared (an egress network). For retiring an instance, and for tests cleaning up after theirs.
   */
  removeAll(): Promise<void>;
  state(id: string): Promise<ContainerState>;
  /** Every workspace of this service instance that the engine knows. */
  list(): Promise<WorkspaceState[]>;
  /**
   * Why the workspace cannot run where it is (as `WorkspaceState.detail`), if so. Optional: a driver
   * whose workspaces always can leaves it out.
   */
  unavailable?(id: string): Promise<string | undefined>;
  /**
   * Every workspace of this service instance that was made as a spare, claimed or not; on a driver
   * whose spares are per machine (swarm), those of this instance's machine.
   */
  listSpares(): Promise<SpareWorkspace[]>;
  /**
   * Why this instance can make no spares (its machine is not one workspaces may run on), if so.
   * Optional: a driver whose spares can always be made leaves it out.
   */
  sparesUnavailable?(): Promise<string | undefined>;
  /**
   * A short string that changes whenever a workspace made now from `image` would differ from one
   * made before (the image, the runtime, the limits, the disk sizes): spares made under another one
   * are retired.
   */
  fingerprint(image: string): string;
  /**
   * With `backpressure`, an unread stdout or stderr holds the process back instead of piling up in
   * the service (both must then be read): for streams of any size, like a preview's tunnel.
   */
  exec(
    id: string,
    cmd: string[],
    options?: { env?: string[]; backpressure?: boolean },
  ): Promise<AttachedProcess>;
  execTty(id: string, cmd: string[], size: { cols: number; rows: number }): Promise<TtyProcess>;
  /**
   * A byte stream to 127.0.0.1:<port> in the running workspace's network namespace, resolving null
   * when nothing listens there; closing either side closes the other, with backpressure both ways.
   * Optional: a driver without a faster way leaves it out, and previews then reach the port through
   * `exec` of a relay (one process per connection).
   */
  portConnection?(id: string, port: number): Promise<Duplex | null>;
  /**
   * Runs `cmd` in a short-lived container hardened like the workspace, with only the workspace's
   * files (at the layout's /workspace): how a repository or an archive gets in, and never through
   * the host. Works whether the workspace runs or not. stdin is the job's stdin; the container is
   * removed once the command exits or `close()` ended it.
   */
  volumeJob(id: string, spec: VolumeJobSpec): Promise<AttachedProcess>;
  /**
   * Runs a short-lived browser container hardened like the workspace, in the running workspace's
   * network namespace and no other (it reaches what the workspace reaches, nothing more), without
   * its files, to its end or its deadline. Resolves with its exit code and standard output, which
   * come from an untrusted page's browser: the caller checks them.
   */
  browserJob(id: string, spec: BrowserJobSpec): Promise<{ exitCode: number; stdout: string }>;
  /**
   * Resolves once every process whose `close()` was called has ended, so a service that stops
   * leaves no terminal client or language server behind in its workspaces.
   */
  settle(): Promise<void>;
  /** State changes made outside the service too (a crash, `docker stop`). Ends with the signal. */
  events(signal: AbortSignal): AsyncIterable<DriverEvent>;
}
