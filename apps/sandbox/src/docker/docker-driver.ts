import { rm } from "node:fs/promises";
import type { Duplex } from "node:stream";
import Docker from "dockerode";
import { StepReport } from "../driver/step-report";
import type {
  AttachedProcess,
  BringUpOptions,
  BrowserJobSpec,
  ContainerState,
  DriverEvent,
  SpareWorkspace,
  TtyProcess,
  VolumeJobSpec,
  WorkspaceDriver,
  WorkspaceSpec,
} from "../driver/workspace-driver";
import { browserJobSpec } from "./browser-job";
import { ClosingProcesses } from "./closing-processes";
import { execAttached, execOnTty } from "./container-exec";
import {
  containerName,
  containerSpec,
  type HardeningOptions,
  LABEL_INSTANCE,
  LABEL_MANAGED,
  LABEL_SPARE,
  LABEL_WORKSPACE,
  stateVolumeName,
  volumeName,
  volumeNames,
} from "./container-spec";
import { DiskImages } from "./disk-images";
import {
  EgressNetwork,
  type EgressSettings,
  EgressUnavailableError,
  removeEgressNetwork,
} from "./egress/egress-network";
import { hasEgress } from "./egress/names";
import { statusCode } from "./engine-errors";
import { runJobContainer } from "./job-container";
import { NamespaceRelays } from "./namespace-relays";
import { PortRelays } from "./port-relay";
import { specFingerprint } from "./spec-fingerprint";
import { LABEL_JOB, startVolumeJob, volumeJobSpec } from "./volume-job";

export interface DockerDriverOptions extends HardeningOptions {
  /** Without it, egress workspaces cannot be created or started. */
  egress?: EgressSettings;
  /**
   * How previews reach a workspace's ports, only for an engine on the service's own host: a process
   * of the service in the workspace's network namespace that hands it the app's sockets
   * (namespace-relays.ts; the service must be root there), or a relay container whose unix socket
   * is in this host folder (port-relay.ts; a service in a container). Without it, or under gVisor
   * (whose netstack neither can join), previews reach ports by `exec`.
   */
  previewRelay?: { namespace: true } | { tunnelDir: string };
}

/** Runs workspaces on the Docker engine that `DOCKER_HOST` (or the local socket) points to. */
export class DockerDriver implements WorkspaceDriver {
  readonly docker: Docker;
  private readonly egressNetwork: EgressNetwork | undefined;
  private readonly disks: DiskImages;
  private readonly closing = new ClosingProcesses();
  private readonly relays: NamespaceRelays | PortRelays | undefined;
  readonly portConnection?: (id: string, port: number) => Promise<Duplex | null>;

  constructor(
    private readonly opts: DockerDriverOptions,
    docker?: Docker,
  ) {
    this.docker = docker ?? new Docker();
    this.egressNetwork = opts.egress && new EgressNetwork(this.docker, opts.instance, opts.egress);
    this.disks = new DiskImages(this.docker, {
      instance: opts.instance,
      toolImage: opts.disk?.toolImage,
      dir: opts.disk?.dir,
    });
    const relay = opts.runtime === "runc" ? opts.previewRelay : undefined;
    if (relay) {
      const relays =
        "namespace" in relay
          ? new NamespaceRelays(this.docker, opts.instance)
          : new PortRelays(this.docker, opts, relay.tunnelDir);
      this.relays = relays;
      this.portConnection = (id, port) => relays.connect(id, port);
    }
  }

  /**
   * The filtered network egress containers join: workspaces, and any other container the service
   * runs on the internet's behalf (ensure it, then create the container with egressHostConfig).
   */
  get egress(): EgressNetwork {
    if (!this.egressNetwork) throw new EgressUnavailableError("this driver was made without egress settings");
    return this.egressNetwork;
  }

  private container(id: string) {
    return this.docker.getContainer(containerName(this.opts.instance, id));
  }

  async ready(): Promise<void> {
    try {
      await this.docker.ping();
    } catch (err) {
      throw new Error(
        `the Docker engine does not answer (${(err as Error).message}); run \`npm start\`, which starts one`,
      );
    }
  }

  /**
   * At service start: rebuilds the egress rules when this instance has egress workspaces and moves
   * those of older versions off Docker's default bridge. When egress cannot be given, the running
   * ones are stopped (a start then says why) and the error is thrown.
   */
  async prepare(): Promise<void> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: {
        label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.opts.instance}`, LABEL_WORKSPACE],
      },
    });
    const egress = containers.flatMap((c) => {
      const networks = Object.keys(c.NetworkSettings?.Networks ?? {});
      return hasEgress(this.opts.instance, networks)
        ? [{ id: c.Id, networks, running: c.State === "running" }]
        : [];
    });
    try {
      for (const c of egress) await this.egress.join(c.id, c.networks);
    } catch (err) {
      for (const c of egress.filter((c) => c.running)) {
        await this.docker
          .getContainer(c.id)
          .stop({ t: 3 })
          .catch(() => undefined);
      }
      throw err;
    }
  }

  async reclaimLeftovers(): Promise<void> {
    if (this.boundedDisks()) await this.disks.detachDeleted();
  }

  async create(spec: WorkspaceSpec, { signal, onStep }: BringUpOptions = {}): Promise<void> {
    if (spec.egress) await this.egress.ensure();
    const labels = {
      [LABEL_MANAGED]: "true",
      [LABEL_INSTANCE]: this.opts.instance,
      [LABEL_WORKSPACE]: spec.id,
    };
    signal?.throwIfAborted();
    const steps = new StepReport(onStep);
    const quota = this.boundedDisks();
    if (quota) steps.begin("making the workspace's disk");
    const volumes = quota
      ? await this.disks.create(
          [
            { volume: volumeName(this.opts.instance, spec.id), mb: quota.workspaceMb },
            { volume: stateVolumeName(this.opts.instance, spec.id), mb: quota.stateMb },
          ],
          labels,
          spec.id,
          { signal, steps },
        )
      : volumeNames(this.opts.instance, spec.id).map((name) => ({ Name: name, Labels: labels }));
    steps.begin("creating the workspace's container");
    for (const volume of volumes) {
      signal?.throwIfAborted();
      await steps.waitFor(
        this.docker.createVolume(volume),
        "waiting for the Docker engine to create a volume",
      );
    }
    signal?.throwIfAborted();
    await steps.waitFor(
      this.docker.createContainer(containerSpec(spec, this.opts)),
      "waiting for the Docker engine to create the workspace's container",
    );
  }

  /** The disk quota new workspaces get, when they get one. */
  private boundedDisks() {
    const quota = this.opts.disk;
    return quota && quota.workspaceMb > 0 ? quota : undefined;
  }

  async start(id: string, { signal, onStep }: BringUpOptions = {}): Promise<void> {
    const steps = new StepReport(onStep);
    steps.begin("starting the workspace's container");
    const info = await steps.waitFor(
      this.container(id).inspect(),
      "waiting for the Docker engine to look up the workspace's container",
    );
    const networks = Object.keys(info.NetworkSettings.Networks ?? {});
    signal?.throwIfAborted();
    if (hasEgress(this.opts.instance, networks)) await this.egress.join(info.Id, networks);
    signal?.throwIfAborted();
    try {
      await this.startContainer(id, steps);
    } catch (err) {
      // The engine mounts bounded volumes through their loop devices, which a reboot forgets.
      if (!(await this.disks.attach(volumeNames(this.opts.instance, id)))) throw err;
      await this.startContainer(id, steps);
    }
  }

  private async startContainer(id: string, steps: StepReport): Promise<void> {
    try {
      await steps.waitFor(
        this.container(id).start(),
        "waiting for the Docker engine to start the workspace's container",
      );
    } catch (err) {
      if (statusCode(err) !== 304) throw err; // 304: already running
    }
  }

  async stop(id: string): Promise<void> {
    try {
      await this.container(id).stop({ t: 3 });
    } catch (err) {
      const code = statusCode(err);
      if (code !== 304 && code !== 404) throw err;
    }
    // Its network namespace is gone: a relay in it would reach nothing.
    await this.relays?.remove(id);
  }

  async remove(id: string): Promise<void> {
    // Jobs first (a clone, a disk job of a creation cut short): they hold the volume or its image.
    const jobs = await this.docker.listContainers({
      all: true,
      filters: { label: [`${LABEL_INSTANCE}=${this.opts.instance}`, `${LABEL_JOB}=${id}`] },
    });
    for (const job of jobs) {
      await this.docker
        .getContainer(job.Id)
        .remove({ force: true })
        .catch((err) => {
          if (statusCode(err) !== 404) throw err;
        });
    }
    await this.relays?.remove(id);
    try {
      await this.container(id).remove({ force: true, v: true });
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    // A creation cut short between its disk job and its volumes left images no volume names.
    await this.disks.removeVolumes(volumeNames(this.opts.instance, id), {
      unlabelled: this.boundedDisks() !== undefined,
    });
  }

  async removeAll(): Promise<void> {
    // Every container of the instance: workspaces, and disk or firewall jobs cut short.
    const label = [`${LABEL_INSTANCE}=${this.opts.instance}`];
    const containers = await this.docker.listContainers({ all: true, filters: { label } });
    await Promise.all(
      containers.map((c) =>
        this.docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
    const { Volumes } = await this.docker.listVolumes({ filters: { label } });
    await this.disks.removeVolumes((Volumes ?? []).map((v) => v.Name));
    const relay = this.opts.previewRelay;
    if (relay && "tunnelDir" in relay) await rm(relay.tunnelDir, { recursive: true, force: true });
    if (this.opts.egress)
      await removeEgressNetwork(this.docker, this.opts.instance, this.opts.egress.helperImage);
  }

  async state(id: string): Promise<ContainerState> {
    try {
      const info = await this.container(id).inspect();
      return info.State.Running ? "running" : "stopped";
    } catch (err) {
      if (statusCode(err) === 404) return "missing";
      throw err;
    }
  }

  async list(): Promise<{ id: string; state: ContainerState }[]> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.opts.instance}`] },
    });
    return containers.flatMap((c) => {
      const id = c.Labels[LABEL_WORKSPACE];
      return id ? [{ id, state: c.State === "running" ? ("running" as const) : ("stopped" as const) }] : [];
    });
  }

  async listSpares(): Promise<SpareWorkspace[]> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: {
        label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.opts.instance}`, `${LABEL_SPARE}=true`],
      },
    });
    return containers.flatMap((c) => {
      const id = c.Labels[LABEL_WORKSPACE];
      const state = c.State === "running" ? ("running" as const) : ("stopped" as const);
      return id ? [{ id, state, createdAt: new Date(c.Created * 1000) }] : [];
    });
  }

  fingerprint(image: string): string {
    return specFingerprint(image, this.opts);
  }

  async exec(
    id: string,
    cmd: string[],
    options: { env?: string[]; backpressure?: boolean } = {},
  ): Promise<AttachedProcess> {
    return execAttached(this.container(id), cmd, options, this.closing);
  }

  async execTty(id: string, cmd: string[], size: { cols: number; rows: number }): Promise<TtyProcess> {
    return execOnTty(this.container(id), cmd, size, this.closing);
  }

  async volumeJob(id: string, spec: VolumeJobSpec): Promise<AttachedProcess> {
    if (spec.network === "egress") await this.egress.ensure();
    return startVolumeJob(this.docker, volumeJobSpec(id, spec, this.opts));
  }

  async browserJob(id: string, spec: BrowserJobSpec): Promise<{ exitCode: number; stdout: string }> {
    const { statusCode, output } = await runJobContainer(this.docker, browserJobSpec(id, spec, this.opts), {
      outputLimit: spec.outputLimit,
      timeoutMs: spec.timeoutMs,
      stdoutOnly: true,
      signal: spec.signal,
    });
    return { exitCode: statusCode, stdout: output };
  }

  settle(): Promise<void> {
    // Relay processes are the service's own children: they end with it (a container relay stays,
    // for the next start of the service to find).
    if (this.relays instanceof NamespaceRelays) this.relays.close();
    return this.closing.settle();
  }

  async *events(signal: AbortSignal): AsyncIterable<DriverEvent> {
    const stream = (await this.docker.getEvents({
      filters: {
        type: ["container"],
        label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.opts.instance}`],
        event: ["start", "die", "stop", "destroy"],
      },
    })) as unknown as NodeJS.ReadableStream & { destroy(): void };
    const onAbort = () => stream.destroy();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      let buffered = "";
      for await (const chunk of stream) {
        buffered += chunk.toString();
        let nl = buffered.indexOf("\n");
        while (nl >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          nl = buffered.indexOf("\n");
          if (!line.trim()) continue;
          const event = JSON.parse(line) as {
            Action: string;
            Actor?: { Attributes?: Record<string, string> };
          };
          const workspaceId = event.Actor?.Attributes?.[LABEL_WORKSPACE];
          if (!workspaceId) continue;
          const state: ContainerState =
            event.Action === "start" ? "running" : event.Action === "destroy" ? "missing" : "stopped";
          yield { workspaceId, state };
        }
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }
}
