import type Docker from "dockerode";
import { type DiskQuota, stateVolumeName, volumeName, volumeNames } from "../docker/container-spec";
import { DiskImages } from "../docker/disk-images";
import type { StepReport } from "../driver/step-report";

/**
 * Disk quotas on a swarm: a workspace's two volumes are ext4 images made on the node Swarm placed it
 * on, by the Docker driver's disk job (disk-images.ts) run through that node's engine, before its task
 * first mounts them (the task then finds the volumes made and uses them as they are). Without a
 * quota, the task's first start makes plain volumes on its node.
 */
export class NodeDisks {
  constructor(
    private readonly instance: string,
    private readonly quota: DiskQuota | undefined,
  ) {}

  /** Whether new workspaces get bounded volumes. */
  get bounded(): boolean {
    return (this.quota?.workspaceMb ?? 0) > 0;
  }

  private on(engine: Docker): DiskImages {
    return new DiskImages(engine, {
      instance: this.instance,
      toolImage: this.quota?.toolImage,
      dir: this.quota?.dir,
    });
  }

  /**
   * Makes the workspace's images and the volumes on them on the node of `engine`; `steps` (the
   * creation's) hears of an engine slow to run the disk job.
   */
  async create(
    engine: Docker,
    id: string,
    labels: Record<string, string>,
    steps?: StepReport,
  ): Promise<void> {
    const quota = this.quota;
    if (!quota || !this.bounded) return;
    const volumes = await this.on(engine).create(
      [
        { volume: volumeName(this.instance, id), mb: quota.workspaceMb },
        { volume: stateVolumeName(this.instance, id), mb: quota.stateMb },
      ],
      labels,
      id,
      { steps },
    );
    for (const volume of volumes) await engine.createVolume(volume);
  }

  /**
   * Puts the images back on loop devices where a reboot of the node took them off (the task could
   * not mount them otherwise); nothing to do for plain volumes.
   */
  async attach(engine: Docker, id: string): Promise<void> {
    await this.on(engine).attach(volumeNames(this.instance, id));
  }

  /** Detaches the loop devices that deleted images of this instance still hold on `engine`'s node. */
  async detachDeleted(engine: Docker): Promise<void> {
    await this.on(engine).detachDeleted();
  }

  /** Removes the workspace's volumes and, first, their images, also those of a creation cut short. */
  async remove(engine: Docker, id: string): Promise<void> {
    await this.on(engine).removeVolumes(volumeNames(this.instance, id), { unlabelled: this.bounded });
  }
}
