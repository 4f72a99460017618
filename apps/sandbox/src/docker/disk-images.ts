import path from "node:path";
import { containerLayout } from "@coder/protocol";
import type Docker from "dockerode";
import type { VolumeCreateOptions } from "dockerode";
import type { StepReport } from "../driver/step-report";
import { NamedError } from "../errors/named-error";
import { LABEL_INSTANCE, LABEL_MANAGED } from "./container-spec";
import { statusCode } from "./engine-errors";
import { JobEngineError, runJobContainer } from "./job-container";
import { LABEL_JOB } from "./volume-job";

/** On a volume that lives in a filesystem image: the image's path on the engine's host. */
export const LABEL_DISK = "dev.coder.disk";

/**
 * Host folder of one symlink per bounded volume, pointing at the loop device its image is attached
 * to. A volume's mount options are fixed at creation, but loop numbers are not: the link is the
 * stable name the engine mounts. It lives on the host's /dev (devtmpfs), so links and loop
 * attachments vanish together at a reboot, and a link never points at a device that now holds
 * another file: a missing link makes the mount fail, and start() attaches the image again.
 */
export const DISK_LINK_DIR = "/dev/coder-disks";

/** The volume names this module passes to the job as arguments; nothing else gets near the shell. */
const VOLUME_NAME = /^[a-z0-9][a-z0-9-]{0,200}$/;

/** The most output of a failed job kept for its error message. */
const OUTPUT_LIMIT = 4096;

type JobOp = "create" | "attach" | "release" | "sweep";
const FAILED: Record<JobOp, string> = {
  create: "the workspace's disk could not be made",
  attach: "the workspace's disk could not be attached",
  release: "the workspace's disk could not be removed",
  sweep: "the loop devices of deleted disk images could not be detached",
};

/**
 * The disk job, run as root without capabilities in a short-lived container of the tool image, with
 * the images' folder at /disks and the host's /dev (the device cgroup lets it reach loop devices
 * only). `create NAME MB…` makes sparse ext4 images (root owned by the workspace user, no reserved
 * blocks, no lost+found, nothing pre-zeroed: a sparse file reads as zeros) and attaches them;
 * `attach NAME…` makes sure each image is on a loop device its link points at; `release NAME…`
 * detaches and deletes; `sweep PREFIX` detaches every loop device still holding a deleted image
 * whose name starts with PREFIX. A loop device is matched to its file by inode and device number,
 * not by path (paths differ between the job's and the host's view; the kernel names the file of a
 * device a job attached by the path in the job's mount, `/NAME.img`, with ` (deleted)` once it is gone).
 */
const JOB = `set -eu
op=$1; uid=$2; shift 2
links=${DISK_LINK_DIR}
loops_of() {
  set -- $(stat -c '%i %Hd:%Ld' "$1")
  # --raw escapes the padding of MAJ:MIN as \\x20.
  losetup --list --noheadings --raw --output NAME,BACK-INO,BACK-MAJ:MIN | sed 's/\\\\x20//g' |
  while read -r dev ino majmin; do
    if [ "$ino" = "$1" ] && [ "$majmin" = "$2" ]; then echo "$dev"; fi
  done
}
attach() {
  img=/disks/$1.img
  dev=$(loops_of "$img" | head -n 1)
  [ -n "$dev" ] || dev=$(losetup --find --show "$img")
  mkdir -p "$links"
  ln -sfn "$dev" "$links/$1"
}
case $op in
create)
  while [ $# -gt 0 ]; do
    img=/disks/$1.img
    rm -f "$img"
    truncate -s "$2M" "$img"
    mkfs.ext4 -q -m 0 -E "root_owner=$uid:$uid,assume_storage_prezeroed=1" "$img"
    debugfs -w -R "rmdir lost+found" "$img" 2>/dev/null
    attach "$1"
    shift 2
  done ;;
attach)
  for name; do attach "$name"; done ;;
release)
  for name; do
    img=/disks/$name.img
    if [ -e "$img" ]; then
      for dev in $(loops_of "$img"); do losetup --detach "$dev"; done
    fi
    rm -f "$links/$name" "$img"
  done ;;
sweep)
  losetup --list --noheadings --raw --output NAME,BACK-FILE |
  while read -r dev file; do
    case $file in */"$1"*'.img\\x20(deleted)') losetup --detach "$dev" ;; esac
  done ;;
esac
`;

export class DiskError extends NamedError {}

export interface DiskImagesOptions {
  /** Labels the job containers, so a test instance's cleanup finds them. */
  instance: string;
  /** Needed only once a volume has an image (see DiskQuota.toolImage). */
  toolImage?: string;
  /** Host folder of new images; default `<engine data root>/coder-disks`. */
  dir?: string;
}

/**
 * Bounded volumes: each is an ext4 filesystem in a sparse image file, attached to a loop device and
 * mounted by the engine's local volume driver when a container using it starts. The image files
 * are made and removed by a job container through the engine, so this works the same whether the
 * service runs on the host or in a container with only the Docker socket.
 */
export class DiskImages {
  constructor(
    private readonly docker: Docker,
    private readonly options: DiskImagesOptions,
  ) {}

  /**
   * Makes one formatted, attached image per volume; returns how to create the volumes on them.
   * The job is labelled with `workspaceId`, so a delete of a creation cut short finds it; `signal`
   * (the creation's) cuts it short, and `steps` (the creation's) hears of an engine slow to run it.
   */
  async create(
    disks: { volume: string; mb: number }[],
    labels: Record<string, string>,
    workspaceId: string,
    creation: { signal?: AbortSignal; steps?: StepReport } = {},
  ): Promise<VolumeCreateOptions[]> {
    const folder = await this.imageFolder();
    const names = disks.map((d) => checkedName(d.volume));
    try {
      await this.run(
        folder,
        "create",
        disks.flatMap((d) => [d.volume, String(d.mb)]),
        workspaceId,
        creation,
      );
    } catch (err) {
      await this.run(folder, "release", names).catch(() => undefined);
      throw err;
    }
    return names.map((name) => ({
      Name: name,
      Driver: "local",
      DriverOpts: { type: "ext4", device: `${DISK_LINK_DIR}/${name}`, o: "nodev,nosuid,discard" },
      Labels: { ...labels, [LABEL_DISK]: path.posix.join(folder, `${name}.img`) },
    }));
  }

  /** Attaches the images of these volumes again where needed (after a reboot); false: none has one. */
  async attach(volumes: string[]): Promise<boolean> {
    const images = await this.imagesOf(volumes);
    await this.forEachFolder(images, (folder, names) => this.run(folder, "attach", names));
    return images.length > 0;
  }

  /**
   * Removes these volumes and, first, their images and loop devices, if any. Missing ones are
   * skipped. `unlabelled`: also the images `create` makes for these names in the current folder,
   * which a creation cut short before its volumes existed leaves without a volume naming them.
   */
  async removeVolumes(volumes: string[], { unlabelled = false } = {}): Promise<void> {
    const labelled = await this.imagesOf(volumes);
    const folder = unlabelled ? await this.imageFolder() : undefined;
    const made = folder ? volumes.map((name) => path.posix.join(folder, `${checkedName(name)}.img`)) : [];
    // Images first: should that fail, the volumes and their labels remain for the next attempt.
    await this.forEachFolder([...new Set([...labelled, ...made])], (folder, names) =>
      this.run(folder, "release", names),
    );
    for (const name of volumes) {
      await this.docker
        .getVolume(name)
        .remove()
        .catch((err) => {
          if (statusCode(err) !== 404) throw err;
        });
    }
  }

  /**
   * Detaches the loop devices still holding deleted images of volumes whose names start with
   * `prefix` (by default this instance's). A device outlives its image when the image's folder is
   * removed without a release (a node's data root deleted, a run killed mid-release); each holds a
   * loop device, a bounded resource of the host every disk-quota create needs one of. A deleted
   * image can never be attached or mounted again, so detaching it is always safe (a device still
   * mounted is only marked to detach when unmounted).
   */
  async detachDeleted(prefix = `coder-${this.options.instance}-`): Promise<void> {
    await this.run(await this.imageFolder(), "sweep", [checkedName(prefix)]);
  }

  /** The image host paths recorded on those of `volumes` that exist and have one. */
  private async imagesOf(volumes: string[]): Promise<string[]> {
    const images: string[] = [];
    for (const name of volumes) {
      try {
        const image = (await this.docker.getVolume(name).inspect()).Labels?.[LABEL_DISK];
        if (image) images.push(image);
      } catch (err) {
        if (statusCode(err) !== 404) throw err;
      }
    }
    return images;
  }

  private async forEachFolder(images: string[], job: (folder: string, names: string[]) => Promise<void>) {
    const byFolder = new Map<string, string[]>();
    for (const image of images) {
      if (!path.posix.isAbsolute(image) || !image.endsWith(".img"))
        throw new DiskError(`a volume names an unexpected disk image: ${image}`);
      const folder = path.posix.dirname(image);
      byFolder.set(folder, [
        ...(byFolder.get(folder) ?? []),
        checkedName(path.posix.basename(image, ".img")),
      ]);
    }
    for (const [folder, names] of byFolder) await job(folder, names);
  }

  private async imageFolder(): Promise<string> {
    if (this.options.dir) return this.options.dir;
    const info = (await this.docker.info()) as { DockerRootDir: string };
    return path.posix.join(info.DockerRootDir, "coder-disks");
  }

  private async run(
    folder: string,
    op: JobOp,
    args: string[],
    workspaceId?: string,
    { signal, steps }: { signal?: AbortSignal; steps?: StepReport } = {},
  ): Promise<void> {
    const image = this.options.toolImage;
    if (!image) throw new DiskError("the workspace has a disk image, but no image is set to run disk jobs");
    const job = runJobContainer(
      this.docker,
      {
        Image: image,
        Entrypoint: ["sh", "-c", JOB, "coder-disk-job"],
        Cmd: [op, String(containerLayout.user.uid), ...args],
        User: "0:0",
        WorkingDir: "/",
        NetworkDisabled: true,
        Labels: {
          [LABEL_MANAGED]: "true",
          [LABEL_INSTANCE]: this.options.instance,
          ...(workspaceId ? { [LABEL_JOB]: workspaceId } : {}),
        },
        HostConfig: {
          NetworkMode: "none",
          CapDrop: ["ALL"],
          SecurityOpt: ["no-new-privileges:true"],
          ReadonlyRootfs: true,
          // The host's /dev, so loop devices the kernel adds on demand show up; the folder is created
          // by the engine when missing.
          Binds: ["/dev:/dev", `${folder}:/disks`],
          // loop-control (10:237) and the loop block devices (7:*), nothing else.
          DeviceCgroupRules: ["c 10:237 rwm", "b 7:* rwm"],
          LogConfig: { Type: "none", Config: {} },
        },
      },
      { outputLimit: OUTPUT_LIMIT, signal, steps, name: "the disk job" },
    );
    // A stuck engine is said in the words of what it held up: the workspace's disk.
    const { statusCode: code, output } = await job.catch((err: Error) => {
      throw err instanceof JobEngineError ? new DiskError(`${FAILED[op]}: ${err.message}`) : err;
    });
    if (code !== 0) {
      const reason = output.trim().split("\n").pop() || `exit code ${code}`;
      throw new DiskError(`${FAILED[op]}: ${reason}`);
    }
  }
}

function checkedName(name: string): string {
  if (!VOLUME_NAME.test(name)) throw new DiskError(`not a workspace volume name: ${name}`);
  return name;
}
