// Test and bench support for checks of what the Docker driver made on the engine, beyond what the
// WorkspaceDriver seam shows: volumes, networks, a container holding a volume, raw execs, memory.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import Docker from "dockerode";
import {
  containerName,
  LABEL_INSTANCE,
  LABEL_WORKSPACE,
  stateVolumeName,
  volumeName,
  volumeNames,
} from "../container-spec";
import { DISK_LINK_DIR } from "../disk-images";
import { LABEL_JOB } from "../volume-job";

/** Whether the workspace's container exists and runs. */
export async function containerRuns(instance: string, workspaceId: string): Promise<boolean> {
  return new Docker()
    .getContainer(containerName(instance, workspaceId))
    .inspect()
    .then(
      (info) => info.State.Running,
      () => false,
    );
}

/** Whether the engine still has the volume of a workspace's snapshot store. */
export async function stateVolumeExists(instance: string, workspaceId: string): Promise<boolean> {
  return new Docker()
    .getVolume(stateVolumeName(instance, workspaceId))
    .inspect()
    .then(
      () => true,
      () => false,
    );
}

/** The networks a workspace's container is on, with its address on each. */
export async function workspaceNetworks(
  instance: string,
  workspaceId: string,
): Promise<Record<string, { IPAddress: string; Gateway: string }>> {
  const info = await new Docker().getContainer(containerName(instance, workspaceId)).inspect();
  return info.NetworkSettings.Networks as Record<string, { IPAddress: string; Gateway: string }>;
}

/** Another container (labelled with the instance, so its cleanup removes it) that mounts the workspace's volume. */
export async function holdWorkspaceVolume(
  instance: string,
  workspaceId: string,
  image: string,
): Promise<void> {
  await new Docker().createContainer({
    Image: image,
    Cmd: ["true"],
    Labels: { [LABEL_INSTANCE]: instance },
    HostConfig: {
      NetworkMode: "none",
      Mounts: [{ Type: "volume", Source: volumeName(instance, workspaceId), Target: "/held" }],
    },
  });
}

/** The engine's id of a workspace's container: two workspaces on one container would share it. */
export async function containerIdOf(instance: string, workspaceId: string): Promise<string> {
  return (await new Docker().getContainer(containerName(instance, workspaceId)).inspect()).Id;
}

/** Gives `image` another name (`repo:tag`), as a rebuilt workspace image would have. */
export async function tagImage(image: string, repo: string, tag: string): Promise<string> {
  await new Docker().getImage(image).tag({ repo, tag });
  return `${repo}:${tag}`;
}

/** Removes a name made by tagImage (the image stays under its other names). */
export async function untagImage(name: string): Promise<void> {
  await new Docker()
    .getImage(name)
    .remove({ noprune: true })
    .catch(() => undefined);
}

/** The configuration (command, environment, labels) of each volume job of the instance running now, as JSON. */
export async function runningJobConfigs(instance: string): Promise<string[]> {
  const docker = new Docker();
  const jobs = await docker.listContainers({
    filters: { label: [LABEL_JOB, `${LABEL_INSTANCE}=${instance}`] },
  });
  const configs = await Promise.all(
    jobs.map((c) =>
      docker
        .getContainer(c.Id)
        .inspect()
        .then(
          (info) => JSON.stringify(info.Config),
          () => undefined,
        ),
    ),
  );
  return configs.filter((c): c is string => c !== undefined);
}

/** `cat` of a file through one Engine API exec: the naive design the daemon is compared with. */
export async function execCat(instance: string, workspaceId: string, file: string): Promise<string> {
  const docker = new Docker();
  const exec = await docker
    .getContainer(containerName(instance, workspaceId))
    .exec({ Cmd: ["cat", file], AttachStdout: true, AttachStderr: true, User: "coder" });
  const stream = await exec.start({});
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  docker.modem.demuxStream(stream, out, out);
  await new Promise((r) => stream.on("end", r));
  return Buffer.concat(chunks).toString();
}

/**
 * What a workspace's running container demonstrably holds, in MiB: its memory cgroup's anonymous
 * and shared (tmpfs) memory, and the proportional share of its containerd shim.
 */
export async function accountedMemoryMiB(instance: string, workspaceId: string): Promise<number> {
  const pid = (await new Docker().getContainer(containerName(instance, workspaceId)).inspect()).State.Pid;
  const cgroups = readFileSync(`/proc/${pid}/cgroup`, "utf8");
  const v1 = cgroups.match(/^\d+:memory:(.+)$/m)?.[1];
  const v2 = cgroups.match(/^0::(.+)$/m)?.[1];
  const stat = readFileSync(
    v1 ? `/sys/fs/cgroup/memory${v1}/memory.stat` : `/sys/fs/cgroup${v2}/memory.stat`,
    "utf8",
  );
  const field = (name: string) => Number(stat.match(new RegExp(`^${name} (\\d+)$`, "m"))?.[1] ?? 0);
  const cgroupBytes = v1 ? field("total_rss") + field("total_shmem") : field("anon") + field("shmem");
  const shim = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
  const pss = readFileSync(`/proc/${shim}/smaps_rollup`, "utf8").match(/^Pss:\s+(\d+) kB/m)?.[1];
  return cgroupBytes / 2 ** 20 + Number(pss ?? 0) / 1024;
}

/**
 * Everything of a workspace the engine's host still holds, by the names and labels the driver
 * gives it: its container and the jobs beside it, its volumes, their image files (in the default
 * folder), links and loop devices. Empty once it is wholly gone. Reads the host: the tests run on it.
 */
export async function workspaceLeftovers(instance: string, workspaceId: string): Promise<string[]> {
  const docker = new Docker();
  const byLabel = async (label: string) =>
    docker.listContainers({ all: true, filters: { label: [`${LABEL_INSTANCE}=${instance}`, label] } });
  const containers = [
    ...(await byLabel(`${LABEL_WORKSPACE}=${workspaceId}`)),
    ...(await byLabel(`${LABEL_JOB}=${workspaceId}`)),
  ].map((c) => `container ${c.Names.join(",")} (${c.State})`);
  const { Volumes } = await docker.listVolumes({
    filters: { label: [`${LABEL_INSTANCE}=${instance}`, `${LABEL_WORKSPACE}=${workspaceId}`] },
  });
  const volumes = (Volumes ?? []).map((v) => `volume ${v.Name}`);
  const folder = path.join((await docker.info()).DockerRootDir, "coder-disks");
  const files = volumeNames(instance, workspaceId).flatMap((name) => [
    ...(existsSync(path.join(folder, `${name}.img`)) ? [`disk image ${name}.img`] : []),
    ...(existsSync(path.join(DISK_LINK_DIR, name)) ? [`disk link ${name}`] : []),
  ]);
  const prefix = `${containerName(instance, workspaceId)}-`;
  const loops = execFileSync("losetup", ["--list", "--noheadings", "--raw", "--output", "NAME,BACK-FILE"])
    .toString()
    .split("\n")
    .filter((line) => line.includes(prefix))
    .map((line) => `loop device ${line}`);
  return [...containers, ...volumes, ...files, ...loops];
}

/**
 * The host's address on Docker's default bridge: where a container on a network reaches the host.
 * The engine names it as the bridge's gateway, or (Debian's engine 20.10 on some machines) leaves
 * that out: then it is the address of the bridge's interface on the host.
 */
export async function hostBridgeAddress(): Promise<string> {
  const bridge = (await new Docker().getNetwork("bridge").inspect()) as {
    IPAM?: { Config?: { Gateway?: string }[] };
    Options?: Record<string, string> | null;
  };
  const gateway = bridge.IPAM?.Config?.[0]?.Gateway;
  if (gateway) return gateway;
  const name = bridge.Options?.["com.docker.network.bridge.name"] ?? "docker0";
  // Not os.networkInterfaces(): it leaves out an interface without carrier, as the bridge is while
  // no container is on it.
  const address = /\binet (\d+\.\d+\.\d+\.\d+)\//.exec(
    execFileSync("ip", ["-4", "-o", "addr", "show", "dev", name], { encoding: "utf8" }),
  )?.[1];
  if (!address)
    throw new Error(`Docker's default bridge has no gateway address, and ${name} no IPv4 address`);
  return address;
}

/** The jobs (volume or browser) of a workspace the engine still has, running or not. */
export async function jobContainers(instance: string, workspaceId: string): Promise<string[]> {
  const jobs = await new Docker().listContainers({
    all: true,
    filters: { label: [`${LABEL_INSTANCE}=${instance}`, `${LABEL_JOB}=${workspaceId}`] },
  });
  return jobs.map((c) => `${c.Names.join(",")} (${c.State})`);
}
