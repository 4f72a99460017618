import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import Docker from "dockerode";
import { browserJobSpec } from "../docker/browser-job";
import { ClosingProcesses } from "../docker/closing-processes";
import { execAttached, execOnTty } from "../docker/container-exec";
import {
  type HardeningOptions,
  LABEL_INSTANCE,
  LABEL_MANAGED,
  LABEL_SPARE,
  LABEL_WORKSPACE,
} from "../docker/container-spec";
import { type EgressSettings, EgressUnavailableError } from "../docker/egress/egress-network";
import { statusCode } from "../docker/engine-errors";
import { runJobContainer } from "../docker/job-container";
import { specFingerprint } from "../docker/spec-fingerprint";
import { LABEL_JOB, startVolumeJob, volumeJobSpec } from "../docker/volume-job";
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
  WorkspaceState,
} from "../driver/workspace-driver";
import type { NodeChannelClient } from "./node-channel/node-channel-client";
import type { NodeRoutes } from "./node-channel/node-routes";
import { type ConstrainedNode, unmetConstraint } from "./node-constraints";
import { NodeDisks } from "./node-disks";
import { NodeEngines } from "./node-engines";
import {
  engineAnswers,
  isUnreachable,
  NodeUnavailableError,
  nodeLost,
  problemOfNode,
  problemsOfNodes,
} from "./node-problems";
import {
  LABEL_EGRESS,
  networkName,
  pinnedTo,
  placementConstraints,
  type SwarmPlacement,
  serviceName,
  serviceSpec,
  workspaceMounts,
} from "./service-spec";
import { SwarmEgress } from "./swarm-egress";

/** How long Swarm may take to place, start or stop a workspace's task. */
const TASK_WAIT_MS = 120_000;
const POLL_MS = 200;
/** How often `events` looks for changes: Swarm reports no task events through the API. */
const EVENTS_POLL_MS = 1000;

export interface SwarmDriverOptions extends HardeningOptions {
  placement: SwarmPlacement;
  /** The nodes' engines this instance reaches; unset: its own node's (`local`, found by `ready`). */
  nodeEngines?: ReadonlyMap<string, Docker>;
  /** This node's engine when the manager is another one (CODER_SWARM_MANAGER); unset: the manager. */
  local?: Docker;
  /** How to reach the instances on the other nodes (node-channel/); unset: only reachable engines. */
  routes?: NodeRoutes;
  /** Without it, egress workspaces cannot be created or started. */
  egress?: EgressSettings;
}

interface Task {
  NodeID?: string;
  DesiredState?: string;
  Status?: { State?: string; ContainerStatus?: { ContainerID?: string } };
}

/** A task that runs, with the node it runs on. */
interface RunningTask {
  nodeId: string;
  containerId: string;
}

/**
 * Runs each workspace as a Swarm service of one task, created through a manager's engine
 * (`DOCKER_HOST`): Swarm places it by its reservations and the configured constraints, and the
 * service is then pinned to that node, where its volumes are. Processes, jobs and volumes go through
 * the engine of that node (node-engines.ts), and so are the disk images and the egress rules of a
 * workspace (node-disks.ts, swarm-egress.ts).
 */
export class SwarmDriver implements WorkspaceDriver {
  readonly manager: Docker;
  private readonly nodes: NodeEngines;
  private readonly disks: NodeDisks;
  private readonly egress: SwarmEgress | undefined;
  private readonly closing = new ClosingProcesses();
  private localNode: string | undefined;

  constructor(
    private readonly opts: SwarmDriverOptions,
    manager?: Docker,
  ) {
    this.manager = manager ?? new Docker();
    this.nodes = new NodeEngines(opts.nodeEngines);
    this.disks = new NodeDisks(opts.instance, opts.disk);
    this.egress = opts.egress && new SwarmEgress(this.manager, opts.instance, opts.egress);
  }

  private service(id: string) {
    return this.manager.getService(serviceName(this.opts.instance, id));
  }

  async ready(): Promise<void> {
    let info: { Swarm?: { NodeID?: string; ControlAvailable?: boolean } };
    try {
      info = await this.manager.info();
    } catch (err) {
      throw new Error(`the Docker engine does not answer (${(err as Error).message})`);
    }
    if (!info.Swarm?.ControlAvailable || !info.Swarm.NodeID) {
      throw new Error(
        "the Docker engine is not a manager of a swarm; run the service against a manager node (docker swarm init)",
      );
    }
    this.localNode = await this.ownNode(info.Swarm.NodeID);
    if (!this.opts.nodeEngines) this.nodes.add(this.localNode, this.opts.local ?? this.manager);
  }

  /** This instance's Swarm node: its own engine's, which is the manager's unless `local` is another. */
  private async ownNode(managerNode: string): Promise<string> {
    if (!this.opts.local) return managerNode;
    const info = (await this.opts.local.info().catch((err: Error) => {
      throw new Error(`this machine's Docker engine does not answer (${err.message})`);
    })) as { Swarm?: { NodeID?: string } };
    if (!info.Swarm?.NodeID)
      throw new Error("this machine's Docker engine is not a node of the swarm (docker swarm join)");
    return info.Swarm.NodeID;
  }

  /** The Swarm node this instance runs on (known once `ready` resolved). */
  get nodeId(): string {
    if (!this.localNode) throw new Error("the swarm driver is not ready yet");
    return this.localNode;
  }

  /** The node a workspace is pinned to, once Swarm placed it; undefined for one never placed or gone. */
  async nodeOfWorkspace(id: string): Promise<string | undefined> {
    return this.pinnedNode(id).catch((err) => {
      if (statusCode(err) === 404) return undefined;
      throw err;
    });
  }

  /** The instance on the workspace's node when this one does not reach that node's engine. */
  private elsewhere(nodeId: string): Promise<NodeChannelClient> | undefined {
    return this.nodes.has(nodeId) || !this.opts.routes ? undefined : this.opts.routes.to(nodeId);
  }

  /** Sets the egress rules on this node again (a reboot lost them); disk images are attached at each start. */
  async prepare(): Promise<void> {
    // A Swarm service cannot name a runtime: gVisor is the engine's default on the nodes chosen.
    if (this.opts.runtime === "runsc" && !this.opts.placement.gvisorConstraint)
      throw new Error(
        "a swarm runs workspaces under each node's default runtime: make runsc the default on the nodes meant for them, label them and name the label in CODER_SWARM_GVISOR_CONSTRAINT",
      );
    if (this.egress && (await this.egress.existing())) await this.egressAfterRestart(this.egress);
  }

  /** The loop devices of this node's deleted disk images (each node's instance frees its own). */
  async reclaimLeftovers(): Promise<void> {
    if (this.disks.bounded) await this.disks.detachDeleted(this.nodes.get(this.nodeId));
  }

  // --- Egress (swarm-egress.ts): the node's rules are set by the instance on the workspace's node.

  private requireEgress(): SwarmEgress {
    if (!this.egress) throw new EgressUnavailableError("this driver was made without egress settings");
    return this.egress;
  }

  /** Before an egress workspace is created or started on `node`: its rules, here or by the instance there. */
  private async egressOn(node: string, id: string): Promise<void> {
    const other = this.elsewhere(node);
    if (other) await (await other).egress(id);
    else await this.requireEgress().ensureOn(this.nodes.get(node));
  }

  /** Asked by the instance creating or starting an egress workspace on this instance's node. */
  async egressHere(_id: string): Promise<void> {
    await this.requireEgress().ensureOn(this.nodes.get(this.nodeId));
  }

  /** Swarm restarts tasks by itself: when the rules cannot be set, this node's egress workspaces stop. */
  private async egressAfterRestart(egress: SwarmEgress): Promise<void> {
    try {
      await egress.ensureOn(this.nodes.get(this.nodeId));
    } catch (err) {
      const services = await this.manager.listServices({
        filters: { label: [`${LABEL_INSTANCE}=${this.opts.instance}`, `${LABEL_EGRESS}=true`] },
      });
      for (const s of services) {
        const id = s.Spec?.Labels?.[LABEL_WORKSPACE];
        if (id && (await this.pinnedNode(id)) === this.nodeId) await this.stop(id);
      }
      throw err;
    }
  }

  private async hasEgress(id: string): Promise<boolean> {
    const info = (await this.service(id).inspect()) as { Spec: { Labels?: Record<string, string> } };
    return info.Spec.Labels?.[LABEL_EGRESS] === "true";
  }

  // --- End of egress.

  /**
   * Makes the workspace's network and service, lets Swarm place its task (which makes the volumes on
   * that node), pins the service there, and stops the task again: the files can be filled before the
   * workspace starts, as with the Docker driver.
   */
  async create(spec: WorkspaceSpec, { signal, onStep }: BringUpOptions = {}): Promise<void> {
    const steps = new StepReport(onStep);
    steps.begin("creating the workspace's service");
    // The first placement runs on the workspace's internal network; the egress network once pinned.
    const egressNetwork = spec.egress ? await this.requireEgress().network() : undefined;
    const labels = this.labelsOf(spec.id);
    try {
      await steps.waitFor(
        this.manager.createNetwork({
          Name: networkName(this.opts.instance, spec.id),
          Driver: "overlay",
          Internal: true,
          Attachable: false,
          Labels: labels,
        }),
        "waiting for the Docker engine to create the workspace's network",
      );
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
    signal?.throwIfAborted();
    // With a quota, the first placement makes no volumes: they are made as images on the node next.
    const volumes = !this.disks.bounded;
    const image = await this.imageId(spec.image);
    await steps.waitFor(
      this.manager.createService(
        serviceSpec({ ...spec, image }, this.opts, this.placementOf(spec), 1, { volumes }),
      ),
      "waiting for the Docker engine to create the workspace's service",
    );
    const placing = "waiting for the swarm to place the workspace";
    steps.begin(placing);
    const task = await steps.waitFor(this.waitForRunningTask(spec.id, signal), placing);
    await this.assertRuntime(spec.id, task);
    steps.begin("pinning the workspace to its machine");
    await this.updateService(spec.id, (s) => {
      const placement = s.TaskTemplate.Placement ?? {};
      const constraints = (placement.Constraints ?? []).filter((c) => c !== pinnedTo(task.nodeId));
      s.TaskTemplate.Placement = { ...placement, Constraints: [...constraints, pinnedTo(task.nodeId)] };
      if (!volumes)
        s.TaskTemplate.ContainerSpec = {
          ...s.TaskTemplate.ContainerSpec,
          Mounts: workspaceMounts(spec, this.opts),
        };
      if (egressNetwork) s.TaskTemplate.Networks = [{ Target: egressNetwork }];
      s.Mode = { Replicated: { Replicas: 0 } };
    });
    await steps.waitFor(
      this.waitForNoTask(spec.id, signal),
      "waiting for the swarm to pin the workspace to its machine",
    );
    signal?.throwIfAborted();
    if (spec.egress) await this.egressOn(task.nodeId, spec.id);
    // Plain volumes need nothing here (the task's first start makes them on whichever node it is).
    if (this.disks.bounded) {
      steps.begin("making the workspace's disk");
      await this.disksOn(task.nodeId, spec.id, "create", steps);
    }
  }

  /**
   * Where Swarm may place the workspace: by the configured constraints; a spare also on this
   * instance's own node, so the instance that claims it reaches it through its own engine.
   */
  private placementOf(spec: WorkspaceSpec): SwarmPlacement {
    const { placement } = this.opts;
    if (!spec.spare) return placement;
    return { ...placement, constraints: [...placement.constraints, pinnedTo(this.nodeId)] };
  }

  /** Spares are made on this instance's node: not when the node is not one workspaces may run on. */
  async sparesUnavailable(): Promise<string | undefined> {
    const node = (await this.manager.getNode(this.nodeId).inspect()) as ConstrainedNode;
    const unmet = unmetConstraint(placementConstraints(this.opts.placement, this.opts.runtime), node);
    return unmet && `this machine (node ${this.nodeId}) does not meet the workspaces' constraint ${unmet}`;
  }

  private labelsOf(id: string): Record<string, string> {
    return { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: this.opts.instance, [LABEL_WORKSPACE]: id };
  }

  /** The workspace's disk images made or attached on its node: here, or by the instance there. */
  private async disksOn(
    node: string,
    id: string,
    step: "create" | "attach",
    steps = new StepReport(),
  ): Promise<void> {
    const other = this.elsewhere(node);
    if (other)
      await steps.waitFor(
        other.then((instance) => instance.disks(id, step)),
        "waiting for the service on the workspace's machine to ready its disk",
      );
    else await this.disksWith(this.nodes.get(node), id, step, steps);
  }

  /** Asked by the instance creating or starting a workspace on this instance's node. */
  async disksHere(id: string, step: "create" | "attach"): Promise<void> {
    await this.disksWith(this.nodes.get(this.nodeId), id, step);
  }

  private async disksWith(
    engine: Docker,
    id: string,
    step: "create" | "attach",
    steps?: StepReport,
  ): Promise<void> {
    if (step === "create") await this.disks.create(engine, id, this.labelsOf(id), steps);
    else await this.disks.attach(engine, id);
  }

  /**
   * The image by its id when the manager has it: a node's engine then runs its own copy (the id is
   * the digest of its content, the same on every node it was loaded into) instead of asking a
   * registry first, which by tag it does before every start.
   */
  private async imageId(image: string): Promise<string> {
    try {
      return (await this.manager.getImage(image).inspect()).Id;
    } catch (err) {
      if (statusCode(err) === 404) return image;
      throw err;
    }
  }

  async start(id: string, { signal, onStep }: BringUpOptions = {}): Promise<void> {
    const steps = new StepReport(onStep);
    steps.begin("starting the workspace's container");
    await this.assertAvailable(id);
    const egress = await this.hasEgress(id);
    if (this.disks.bounded || egress) {
      const node = await this.pinnedNode(id);
      if (!node) throw new Error("the workspace was never placed on a machine of the swarm");
      if (this.disks.bounded) await this.disksOn(node, id, "attach", steps);
      if (egress) await this.egressOn(node, id);
    }
    signal?.throwIfAborted();
    await this.scale(id, 1);
    const task = await steps.waitFor(
      this.waitForRunningTask(id, signal),
      "waiting for the swarm to start the workspace's container",
    );
    await this.assertRuntime(id, task);
  }

  /**
   * Under gVisor, the task's container must run under runsc. Its node's engine chose the runtime (its
   * default), so a node labelled for gVisor whose engine is not set up for it is caught here, while
   * the container runs nothing but its `sleep` (the daemon and everything else of the workspace are
   * started only once this resolved): it is stopped again, and the message says what to fix.
   */
  private async assertRuntime(id: string, task: RunningTask): Promise<void> {
    if (this.opts.runtime !== "runsc") return;
    const info = await this.nodes.get(task.nodeId).getContainer(task.containerId).inspect();
    const runtime = info.HostConfig.Runtime;
    if (runtime === "runsc") return;
    await this.scale(id, 0);
    throw new Error(
      `the machine it was placed on (node ${task.nodeId.slice(0, 12)}) runs containers under ${runtime}, not gVisor: an operator makes runsc its engine's default runtime, or takes away its label (${this.opts.placement.gvisorConstraint})`,
    );
  }

  async stop(id: string): Promise<void> {
    try {
      await this.scale(id, 0);
    } catch (err) {
      if (statusCode(err) === 404) return;
      throw err;
    }
    await this.waitForNoTask(id);
  }

  private async scale(id: string, replicas: 0 | 1): Promise<void> {
    await this.updateService(id, (s) => {
      s.Mode = { Replicated: { Replicas: replicas } };
    });
  }

  /** Changes the service's spec, retrying when another update came in between. */
  private async updateService(id: string, change: (spec: ServiceSpecBody) => void): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const info = (await this.service(id).inspect()) as {
        Version: { Index: number };
        Spec: ServiceSpecBody;
      };
      change(info.Spec);
      try {
        await this.service(id).update({ _query: { version: info.Version.Index }, _body: info.Spec } as never);
        return;
      } catch (err) {
        // "update out of sequence": someone else updated it since the inspect.
        if (attempt >= 3 || !/out of sequence/.test((err as Error).message)) throw err;
      }
    }
  }

  private async tasks(id: string): Promise<Task[]> {
    return (await this.manager.listTasks({
      filters: { service: [serviceName(this.opts.instance, id)] },
    })) as Task[];
  }

  private async runningTask(id: string): Promise<RunningTask | undefined> {
    const task = (await this.tasks(id)).find(
      (t) => t.DesiredState === "running" && t.Status?.State === "running",
    );
    const containerId = task?.Status?.ContainerStatus?.ContainerID;
    return task?.NodeID && containerId ? { nodeId: task.NodeID, containerId } : undefined;
  }

  private async waitForRunningTask(id: string, signal?: AbortSignal): Promise<RunningTask> {
    const deadline = Date.now() + TASK_WAIT_MS;
    for (;;) {
      signal?.throwIfAborted();
      const task = await this.runningTask(id);
      if (task) return task;
      // Its machine drained or lost meanwhile: Swarm would wait for it forever.
      await this.assertAvailable(id);
      if (Date.now() > deadline)
        throw new Error(`the swarm did not start the workspace within ${TASK_WAIT_MS / 1000} s`);
      await sleep(POLL_MS);
    }
  }

  /** Until no task of the service runs or is about to (its container is stopped or gone). */
  private async waitForNoTask(id: string, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + TASK_WAIT_MS;
    const active = ["new", "pending", "assigned", "accepted", "preparing", "ready", "starting", "running"];
    for (;;) {
      signal?.throwIfAborted();
      const tasks = await this.tasks(id);
      if (!tasks.some((t) => active.includes(t.Status?.State ?? ""))) return;
      if (Date.now() > deadline)
        throw new Error(`the swarm did not stop the workspace within ${TASK_WAIT_MS / 1000} s`);
      await sleep(POLL_MS);
    }
  }

  /** The node the workspace is pinned to (where its volumes are), once it was placed. */
  private async pinnedNode(id: string): Promise<string | undefined> {
    const info = (await this.service(id).inspect()) as { Spec: ServiceSpecBody };
    const pin = info.Spec.TaskTemplate.Placement?.Constraints?.find((c) => c.startsWith(pinnedTo("")));
    return pin?.slice(pinnedTo("").length);
  }

  private async nodeOf(id: string): Promise<Docker> {
    const node = await this.pinnedNode(id);
    if (!node) throw new Error("the workspace was never placed on a machine of the swarm");
    return this.nodes.get(node);
  }

  /** Why the workspace cannot run on the machine it is pinned to (drained, paused, lost), if so. */
  async unavailable(id: string): Promise<string | undefined> {
    const node = await this.pinnedNode(id).catch((err) => {
      if (statusCode(err) === 404) return undefined;
      throw err;
    });
    return node ? problemOfNode(this.manager, node) : undefined;
  }

  private async assertAvailable(id: string): Promise<void> {
    const problem = await this.unavailable(id);
    if (problem) throw new NodeUnavailableError(problem);
  }

  /**
   * Runs `here` with the workspace's running task and its node's engine, or `there` through the
   * instance on its node when this one does not reach that engine. No task runs: says why when its
   * machine is the reason; the engine does not answer: its machine is lost, whatever the swarm says
   * yet (it notices only after a few missed heartbeats).
   */
  private async onTaskNode<T>(
    id: string,
    here: (task: RunningTask, engine: Docker) => Promise<T>,
    there: (channel: NodeChannelClient) => Promise<T>,
  ): Promise<T> {
    const task = await this.runningTask(id);
    if (!task) {
      await this.assertAvailable(id);
      throw new Error("the workspace is not running");
    }
    const other = this.elsewhere(task.nodeId);
    const engine = other ? undefined : this.nodes.get(task.nodeId);
    try {
      if (other) return await there(await other);
      return await here(task, engine as Docker);
    } catch (err) {
      if (isUnreachable(err) || (engine && !(await engineAnswers(engine))))
        throw new NodeUnavailableError(nodeLost(task.nodeId));
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    const node = await this.pinnedNode(id).catch((err) => {
      if (statusCode(err) === 404) return undefined;
      throw err;
    });
    try {
      await this.service(id).remove();
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    if (node) {
      const other = this.elsewhere(node);
      if (other) await (await other).removeLeftovers(id);
      else await this.removeFromNode(id, this.nodes.get(node));
    }
    await this.removeNetwork(id);
  }

  /** What a removed workspace left on this instance's node (asked by the instance that removed it). */
  async removeLeftovers(id: string): Promise<void> {
    await this.removeFromNode(id, this.nodes.get(this.nodeId));
  }

  /** The task's container (Swarm removes it soon after the service), jobs, then the volumes. */
  private async removeFromNode(id: string, engine: Docker): Promise<void> {
    const { instance } = this.opts;
    const deadline = Date.now() + TASK_WAIT_MS;
    for (;;) {
      const containers = await engine.listContainers({
        all: true,
        filters: { label: [`${LABEL_INSTANCE}=${instance}`, `${LABEL_WORKSPACE}=${id}`] },
      });
      if (containers.length === 0) break;
      if (Date.now() > deadline) {
        for (const c of containers)
          await engine
            .getContainer(c.Id)
            .remove({ force: true })
            .catch(() => undefined);
        break;
      }
      await sleep(POLL_MS);
    }
    const jobs = await engine.listContainers({
      all: true,
      filters: { label: [`${LABEL_INSTANCE}=${instance}`, `${LABEL_JOB}=${id}`] },
    });
    for (const job of jobs)
      await engine
        .getContainer(job.Id)
        .remove({ force: true })
        .catch(() => undefined);
    await this.disks.remove(engine, id);
  }

  private async removeNetwork(id: string): Promise<void> {
    // The network stays busy until the task's endpoints are gone on every node.
    const deadline = Date.now() + TASK_WAIT_MS;
    for (;;) {
      try {
        await this.manager.getNetwork(networkName(this.opts.instance, id)).remove();
        return;
      } catch (err) {
        const code = statusCode(err);
        if (code === 404) return;
        if (Date.now() > deadline) throw err;
      }
      await sleep(POLL_MS);
    }
  }

  async removeAll(): Promise<void> {
    const services = await this.manager.listServices({
      filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.opts.instance}`] },
    });
    for (const service of services) {
      const id = service.Spec?.Labels?.[LABEL_WORKSPACE];
      if (id) await this.remove(id);
    }
    await this.egress?.remove(this.nodes.all());
    const networks = await this.manager.listNetworks({
      filters: { label: [`${LABEL_INSTANCE}=${this.opts.instance}`] },
    });
    for (const network of networks)
      await this.manager
        .getNetwork(network.Id)
        .remove()
        .catch(() => undefined);
  }

  async state(id: string): Promise<ContainerState> {
    try {
      await this.service(id).inspect();
    } catch (err) {
      if (statusCode(err) === 404) return "missing";
      throw err;
    }
    return (await this.runningTask(id)) ? "running" : "stopped";
  }

  /** The instance's services with their workspace id, whether a task runs, and when they were made. */
  private async services(extraLabel?: string) {
    const label = [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${this.opts.instance}`];
    const services = await this.manager.listServices({
      filters: { label: extraLabel ? [...label, extraLabel] : label },
    });
    const tasks = (await this.manager.listTasks({ filters: { "desired-state": ["running"] } })) as (Task & {
      ServiceID?: string;
    })[];
    const running = new Set(tasks.filter((t) => t.Status?.State === "running").map((t) => t.ServiceID));
    const problemOf = await problemsOfNodes(this.manager);
    return services.flatMap((s) => {
      const id = s.Spec?.Labels?.[LABEL_WORKSPACE];
      const state: ContainerState = running.has(s.ID) ? "running" : "stopped";
      const pin = s.Spec?.TaskTemplate?.Placement?.Constraints?.find((c) => c.startsWith(pinnedTo("")));
      const node = pin?.slice(pinnedTo("").length);
      const detail = state === "stopped" && node ? problemOf(node) : undefined;
      const createdAt = new Date(s.CreatedAt ?? 0);
      return id ? [{ id, state, ...(detail ? { detail } : {}), createdAt, node }] : [];
    });
  }

  async list(): Promise<WorkspaceState[]> {
    return (await this.services()).map(({ id, state, detail }) => ({
      id,
      state,
      ...(detail ? { detail } : {}),
    }));
  }

  /** The spares pinned to this instance's node: each node's instance keeps its own. */
  async listSpares(): Promise<SpareWorkspace[]> {
    return (await this.services(`${LABEL_SPARE}=true`))
      .filter((s) => s.node === this.nodeId)
      .map(({ node: _, ...spare }) => spare);
  }

  /** With this instance's node: a spare is claimed only by the instances on the node it runs on. */
  fingerprint(image: string): string {
    return createHash("sha256")
      .update(
        `${specFingerprint(image, this.opts)} swarm ${JSON.stringify(this.opts.placement)} node ${this.nodeId}`,
      )
      .digest("hex")
      .slice(0, 16);
  }

  async exec(
    id: string,
    cmd: string[],
    options: { env?: string[]; backpressure?: boolean } = {},
  ): Promise<AttachedProcess> {
    return this.onTaskNode(
      id,
      (task, engine) => execAttached(engine.getContainer(task.containerId), cmd, options, this.closing),
      (channel) => channel.exec(id, cmd, options),
    );
  }

  async execTty(id: string, cmd: string[], size: { cols: number; rows: number }): Promise<TtyProcess> {
    return this.onTaskNode(
      id,
      (task, engine) => execOnTty(engine.getContainer(task.containerId), cmd, size, this.closing),
      (channel) => channel.execTty(id, cmd, size),
    );
  }

  /** A plain container on the workspace's node: its volumes are local volumes there. */
  async volumeJob(id: string, spec: VolumeJobSpec): Promise<AttachedProcess> {
    const node = await this.pinnedNode(id);
    const other = node && this.elsewhere(node);
    if (other) return (await other).volumeJob(id, spec);
    const engine = await this.nodeOf(id);
    const options = volumeJobSpec(id, spec, this.opts);
    const egress = spec.network === "egress";
    return startVolumeJob(engine, egress ? await this.requireEgress().joinJob(engine, options) : options);
  }

  /** A plain container on the workspace's node, in the network namespace of its task's container. */
  async browserJob(id: string, spec: BrowserJobSpec): Promise<{ exitCode: number; stdout: string }> {
    return this.onTaskNode(
      id,
      async (task, engine) => {
        const options = browserJobSpec(id, spec, this.opts);
        const { statusCode, output } = await runJobContainer(
          engine,
          { ...options, HostConfig: { ...options.HostConfig, NetworkMode: `container:${task.containerId}` } },
          { outputLimit: spec.outputLimit, timeoutMs: spec.timeoutMs, stdoutOnly: true },
        );
        return { exitCode: statusCode, stdout: output };
      },
      (channel) => channel.browserJob(id, spec),
    );
  }

  settle(): Promise<void> {
    return this.closing.settle();
  }

  /** Changes since the call: what runs is asked at once, before anything is read from the stream. */
  events(signal: AbortSignal): AsyncIterable<DriverEvent> {
    return this.changes(this.list(), signal);
  }

  private async *changes(first: Promise<WorkspaceState[]>, signal: AbortSignal): AsyncIterable<DriverEvent> {
    // A reason that comes or goes is a change too (a stopped workspace's machine drained).
    const seen = (w: WorkspaceState) => `${w.state} ${w.detail ?? ""}`;
    let known = new Map((await first).map((w) => [w.id, seen(w)]));
    while (!signal.aborted) {
      await sleep(EVENTS_POLL_MS, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      const list = await this.list();
      const now = new Map(list.map((w) => [w.id, seen(w)]));
      for (const w of list) {
        if (known.get(w.id) !== seen(w))
          yield { workspaceId: w.id, state: w.state, ...(w.detail ? { detail: w.detail } : {}) };
      }
      for (const workspaceId of known.keys()) {
        if (!now.has(workspaceId)) yield { workspaceId, state: "missing" };
      }
      known = now;
    }
  }
}

/** The parts of a service's spec the driver changes. */
interface ServiceSpecBody {
  TaskTemplate: {
    Placement?: { Constraints?: string[] };
    ContainerSpec?: { Mounts?: unknown[] };
    Networks?: { Target: string }[];
  };
  Mode?: { Replicated?: { Replicas?: number } };
}
