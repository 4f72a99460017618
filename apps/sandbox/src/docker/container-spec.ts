import { containerLayout } from "@coder/protocol";
import type { ContainerCreateOptions } from "dockerode";
import type { WorkspaceSpec } from "../driver/workspace-driver";
import { egressHostConfig } from "./egress/names";

export const LABEL_MANAGED = "dev.coder.managed";
export const LABEL_INSTANCE = "dev.coder.instance";
export const LABEL_WORKSPACE = "dev.coder.workspace";
/** Made ahead as a spare for the warm pool (it keeps the label once claimed). */
export const LABEL_SPARE = "dev.coder.spare";

/** Upper bounds of a workspace's volumes, each a filesystem image of its own (see disk-images.ts). */
export interface DiskQuota {
  /** Size of /workspace in MB; 0 gives new workspaces plain, unbounded volumes. */
  workspaceMb: number;
  /** Size of the snapshot store in MB. */
  stateMb: number;
  /** Host folder (as the engine sees it) of the images; default `<engine data root>/coder-disks`. */
  dir?: string;
  /** The image that runs the short disk jobs (it has losetup, mkfs.ext4 and debugfs). */
  toolImage: string;
}

export interface HardeningOptions {
  instance: string;
  runtime: "runc" | "runsc";
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
  /** Absent: plain volumes that can grow until the engine's disk is full. */
  disk?: DiskQuota;
}

export function containerName(instance: string, id: string): string {
  return `coder-${instance}-${id}`;
}

export function volumeName(instance: string, id: string): string {
  return `coder-${instance}-${id}-workspace`;
}

/** The volume of the daemon's snapshot store: apart from the workspace, so its files never show. */
export function stateVolumeName(instance: string, id: string): string {
  return `coder-${instance}-${id}-state`;
}

/** Every volume of a workspace, in the order they are created. */
export function volumeNames(instance: string, id: string): string[] {
  return [volumeName(instance, id), stateVolumeName(instance, id)];
}

/** The environment of a workspace's processes: nothing of the service's own. */
export function workspaceEnv(): string[] {
  const { user } = containerLayout;
  return [`HOME=${user.home}`, "LANG=C.UTF-8", "TERM=xterm-256color", `USER=${user.name}`, "SHELL=/bin/bash"];
}

/** The labels that find a workspace's container (or Swarm service) again. */
export function workspaceLabels(spec: WorkspaceSpec, instance: string): Record<string, string> {
  return {
    [LABEL_MANAGED]: "true",
    [LABEL_INSTANCE]: instance,
    [LABEL_WORKSPACE]: spec.id,
    ...(spec.spare ? { [LABEL_SPARE]: "true" } : {}),
  };
}

/** The two writable folders besides the volumes, in memory: scratch space and the user's home. */
export function tmpfsFolders(): { target: string; sizeMb: number; mode: number; ownedByUser: boolean }[] {
  return [
    { target: "/tmp", sizeMb: 512, mode: 0o1777, ownedByUser: false },
    { target: containerLayout.user.home, sizeMb: 256, mode: 0o755, ownedByUser: true },
  ];
}

/**
 * The create options of every workspace container. Untrusted code runs here, so the defaults take
 * everything away that the workspace does not need: root, capabilities, privilege escalation, a
 * writable root filesystem, the network (unless the owner turned egress on: then the filtered egress
 * network, see egress/), host mounts and the Docker socket. Only the workspace and state volumes and
 * two tmpfs folders are writable.
 */
export function containerSpec(spec: WorkspaceSpec, opts: HardeningOptions): ContainerCreateOptions {
  const { workspace, stateDir, user } = containerLayout;
  return {
    name: containerName(opts.instance, spec.id),
    Image: spec.image,
    Cmd: ["sleep", "infinity"],
    User: `${user.uid}:${user.uid}`,
    WorkingDir: workspace,
    Hostname: "workspace",
    Env: workspaceEnv(),
    Labels: workspaceLabels(spec, opts.instance),
    NetworkDisabled: !spec.egress,
    StopTimeout: 3,
    HostConfig: {
      ...hardenedHostConfig(opts),
      ...(spec.egress ? egressHostConfig(opts.instance) : { NetworkMode: "none" }),
      Mounts: [
        { Type: "volume", Source: volumeName(opts.instance, spec.id), Target: workspace },
        { Type: "volume", Source: stateVolumeName(opts.instance, spec.id), Target: stateDir },
      ],
      RestartPolicy: { Name: "unless-stopped" },
      LogConfig: { Type: "json-file", Config: { "max-size": "1m", "max-file": "1" } },
    },
  };
}

/**
 * What every container that runs untrusted content gets, workspaces and the jobs beside them
 * (volume-job.ts): no root (the image's user), no capabilities or privilege escalation, a read-only
 * root with two small tmpfs folders, no host mounts, and the workspace's limits.
 */
export function hardenedHostConfig(opts: HardeningOptions) {
  const { user } = containerLayout;
  return {
    Init: true,
    Runtime: opts.runtime,
    CapDrop: ["ALL"],
    SecurityOpt: ["no-new-privileges:true"],
    Privileged: false,
    ReadonlyRootfs: true,
    Tmpfs: Object.fromEntries(
      tmpfsFolders().map((t) => [
        t.target,
        `rw,nosuid,nodev,size=${t.sizeMb}m,${t.ownedByUser ? `uid=${user.uid},gid=${user.uid},` : ""}mode=${t.mode.toString(8).padStart(4, "0")}`,
      ]),
    ),
    Binds: [],
    PidsLimit: opts.pidsLimit,
    Memory: opts.memoryBytes,
    MemorySwap: opts.memoryBytes,
    NanoCpus: opts.nanoCpus,
    IpcMode: "private",
  };
}
