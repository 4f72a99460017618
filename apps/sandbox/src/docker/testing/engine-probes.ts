// Test support for tests that check what the Docker driver made on the engine, beyond what the
// WorkspaceDriver seam shows: volumes, networks, a container holding a volume.
import Docker from "dockerode";
import { containerName, LABEL_INSTANCE, stateVolumeName, volumeName } from "../container-spec";
import { LABEL_JOB } from "../volume-job";

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
