import { containerLayout } from "@coder/protocol";
import type { CreateServiceOptions } from "dockerode";
import {
  containerName,
  type HardeningOptions,
  stateVolumeName,
  tmpfsFolders,
  volumeName,
  workspaceEnv,
  workspaceLabels,
} from "../docker/container-spec";
import type { WorkspaceSpec } from "../driver/workspace-driver";

export interface SwarmPlacement {
  /** Swarm constraint expressions every workspace is placed by (`node.labels.coder==yes`). */
  constraints: readonly string[];
  /** What Swarm sets aside on a node for each workspace when it places it. */
  reservations: { memoryBytes: number; nanoCpus: number };
  /**
   * Under gVisor (CODER_RUNTIME=runsc), the constraint naming the nodes whose engine's default
   * runtime is runsc (`node.labels.coder.runtime==runsc`): added to every workspace's.
   */
  gvisorConstraint?: string;
}

/** The workspace's service: named like the Docker driver's container. */
export function serviceName(instance: string, id: string): string {
  return containerName(instance, id);
}

/** The workspace's own internal overlay network: Swarm has no `none` network. */
export function networkName(instance: string, id: string): string {
  return `${containerName(instance, id)}-net`;
}

/** On the services of workspaces with egress: they join the instance's egress network once placed. */
export const LABEL_EGRESS = "dev.coder.egress";

/** A constraint that keeps a workspace on the node its volumes were made on. */
export function pinnedTo(nodeId: string): string {
  return `node.id==${nodeId}`;
}

/**
 * The Swarm service of a workspace: one task, with the Docker driver's hardening where the Swarm API
 * has it (user 1000, every capability dropped, read-only root, two tmpfs folders, pids, memory and
 * CPU limits, init, the engine's default seccomp profile). The API has no no-new-privileges and no
 * per-service runtime: the compensating rule is an image without setuid/setcap files and an empty
 * bounding set (swarm/hardening.docker.test.ts proves both). No network but the workspace's own
 * internal one, which has no route out and no other member (an egress workspace moves to the
 * egress network once placed: swarm-egress.ts). Made with no replica running; the driver scales it
 * to one to start it.
 */
export function serviceSpec(
  spec: WorkspaceSpec,
  opts: HardeningOptions,
  placement: SwarmPlacement,
  replicas: 0 | 1,
  { volumes = true } = {},
): CreateServiceOptions {
  const { workspace, user } = containerLayout;
  const labels = workspaceLabels(spec, opts.instance);
  return {
    Name: serviceName(opts.instance, spec.id),
    Labels: spec.egress ? { ...labels, [LABEL_EGRESS]: "true" } : labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: spec.image,
        Args: ["sleep", "infinity"],
        User: `${user.uid}:${user.uid}`,
        Dir: workspace,
        Hostname: "workspace",
        Env: workspaceEnv(),
        // The task's container carries the workspace's labels too: the node's engine finds it by them.
        Labels: labels,
        Init: true,
        ReadOnly: true,
        CapabilityDrop: ["ALL"],
        StopGracePeriod: 3e9,
        // The egress network has no IPv6, and link-local IPv6 would pass the IPv4-only rules.
        ...(spec.egress ? { Sysctls: { "net.ipv6.conf.all.disable_ipv6": "1" } } : {}),
        Mounts: workspaceMounts(spec, opts, { volumes }),
      },
      Resources: {
        Limits: { MemoryBytes: opts.memoryBytes, NanoCPUs: opts.nanoCpus, Pids: opts.pidsLimit },
        Reservations: {
          MemoryBytes: placement.reservations.memoryBytes,
          NanoCPUs: placement.reservations.nanoCpus,
        },
      },
      // Like the Docker driver's unless-stopped: a crashed workspace comes back; a stop scales to 0.
      RestartPolicy: { Condition: "any", Delay: 1e9 },
      Placement: { Constraints: placementConstraints(placement, opts.runtime) },
      Networks: [{ Target: networkName(opts.instance, spec.id) }],
      LogDriver: { Name: "json-file", Options: { "max-size": "1m", "max-file": "1" } },
    },
    Mode: { Replicated: { Replicas: replicas } },
    // No virtual IP: the network holds the workspace's task and nothing else.
    EndpointSpec: { Mode: "dnsrr" },
  };
}

/**
 * The task's mounts: its two volumes (unless `volumes` is false: a first placement that only finds
 * the node, when the volumes are to be made there as disk images) and its tmpfs folders.
 */
export function workspaceMounts(spec: WorkspaceSpec, opts: HardeningOptions, { volumes = true } = {}) {
  const { workspace, stateDir } = containerLayout;
  const labels = workspaceLabels(spec, opts.instance);
  return [
    ...(volumes ? [volumeName(opts.instance, spec.id), stateVolumeName(opts.instance, spec.id)] : []).map(
      (source, i) => ({
        Type: "volume" as const,
        Source: source,
        Target: i === 0 ? workspace : stateDir,
        // Copied from the image on first use: the volume takes over the folder's owner (coder).
        VolumeOptions: { NoCopy: false, Labels: labels, DriverConfig: { Name: "local", Options: {} } },
      }),
    ),
    // Swarm's tmpfs takes no owner, and the mode of the folder it covers: the image's home
    // folder is open to all for this (images/workspace/Dockerfile; only uid 1000 runs here).
    ...tmpfsFolders().map((t) => ({
      Type: "tmpfs" as const,
      Source: "",
      Target: t.target,
      TmpfsOptions: { SizeBytes: t.sizeMb * 1024 * 1024, Mode: t.mode },
    })),
  ];
}

/**
 * The configured constraints, and under gVisor the one that picks the nodes whose engine runs
 * containers under runsc by default: a Swarm service cannot name a runtime.
 */
export function placementConstraints(
  placement: SwarmPlacement,
  runtime: HardeningOptions["runtime"],
): string[] {
  const { constraints, gvisorConstraint } = placement;
  return runtime === "runsc" && gvisorConstraint ? [...constraints, gvisorConstraint] : [...constraints];
}
