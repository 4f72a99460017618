import { execFileSync } from "node:child_process";
import { existsSync, rmSync, statfsSync, statSync } from "node:fs";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  execIn,
  newInstance,
  removeInstance,
  requireImage,
  startTestService,
  type TestService,
  waitForStatus,
} from "../testing/harness";
import { containerName, stateVolumeName, volumeName } from "./container-spec";
import { DISK_LINK_DIR, LABEL_DISK } from "./disk-images";
import { DockerDriver } from "./docker-driver";

const MB = 1024 * 1024;
const WORKSPACE_MB = 64;
/** What CODER_DISK_MB=64 gives the snapshot store: a quarter of it. */
const STATE_MB = 16;

/** Free bytes of the filesystem that holds `folder`, as the host sees them. */
function hostFree(folder: string): number {
  const s = statfsSync(folder);
  return s.bavail * s.bsize;
}

/** Size of the filesystem mounted at `dir` inside a workspace, in bytes. */
async function fsSizeIn(instance: string, id: string, dir: string): Promise<number> {
  const { out } = await execIn(instance, id, ["stat", "-f", "-c", "%b %S", dir]);
  const [blocks, size] = out.trim().split(" ").map(Number);
  return (blocks ?? 0) * (size ?? 0);
}

/** The inodes of the files behind the host's loop devices. */
function loopBackingInodes(): number[] {
  const out = execFileSync("losetup", ["--list", "--noheadings", "--raw", "--output", "BACK-INO"]).toString();
  return out.split("\n").filter(Boolean).map(Number);
}

const docker = new Docker();

describe("a workspace with CODER_DISK_MB=64", () => {
  let t: TestService;
  let id: string;
  let engineRoot: string;
  /** Host paths of the workspace's two filesystem images, read from the volumes' labels. */
  let images: string[];

  const sh = (script: string) => execIn(t.instance, id, ["sh", "-c", script]);
  const fsSize = (dir: string) => fsSizeIn(t.instance, id, dir);

  beforeAll(async () => {
    t = await startTestService({}, { CODER_DISK_MB: String(WORKSPACE_MB) });
    id = (await t.api.workspace.create.mutate({ name: "quota" })).id;
    await waitForStatus(t.api, id, "running");
    engineRoot = (await docker.info()).DockerRootDir;
    const volumes = [volumeName(t.instance, id), stateVolumeName(t.instance, id)];
    images = await Promise.all(
      volumes.map(
        async (v) => (await docker.getVolume(v).inspect()).Labels?.[LABEL_DISK] ?? `(${v} unlabelled)`,
      ),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives /workspace a filesystem of its own: empty, owned by coder, no lost+found", async () => {
    expect(await fsSize("/workspace")).toBeLessThanOrEqual(WORKSPACE_MB * MB);
    const { out } = await sh("stat -c '%u' /workspace; ls -A /workspace; echo end");
    expect(out.trim().split("\n")).toEqual(["1000", "end"]);
  });

  it("refuses a 200 MB write into /workspace with 'No space left on device', and the host loses at most the quota", async () => {
    const before = hostFree(engineRoot);
    const fill = await sh("head -c 200M /dev/zero > /workspace/fill; sync /workspace/fill; echo exit=$?");
    const dropped = before - hostFree(engineRoot);
    expect(fill.out).toMatch(/No space left on device/);
    expect(dropped).toBeLessThan((WORKSPACE_MB + STATE_MB + 32) * MB);
    // What the host gave the workspace, exactly: the blocks of its two sparse images.
    const allocated = images.reduce((sum, image) => sum + statSync(image).blocks * 512, 0);
    expect(allocated).toBeLessThanOrEqual((WORKSPACE_MB + STATE_MB) * MB);
    await sh("rm -f /workspace/fill");
  });

  it("bounds the snapshot store in /var/lib/coder with a smaller quota of its own", async () => {
    expect(await fsSize("/var/lib/coder")).toBeLessThanOrEqual(STATE_MB * MB);
    const fill = await sh("head -c 200M /dev/zero > /var/lib/coder/fill; echo exit=$?");
    expect(fill.out).toMatch(/No space left on device/);
    await sh("rm -f /var/lib/coder/fill");
  });

  it("keeps its files and its bound across stop/start and an engine restart of its container", async () => {
    await t.api.files.write.mutate({ workspaceId: id, path: "kept.txt", content: "still here\n" });
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");
    expect((await sh("cat /workspace/kept.txt")).out).toBe("still here\n");

    await docker.getContainer(containerName(t.instance, id)).restart({ t: 1 });
    expect((await sh("cat /workspace/kept.txt")).out).toBe("still here\n");
    expect(await fsSize("/workspace")).toBeLessThanOrEqual(WORKSPACE_MB * MB);
  });

  it("starts again with its files after the host forgot its loop devices (as after a reboot)", async () => {
    await t.api.workspace.stop.mutate({ workspaceId: id });
    const inodes = new Set(images.map((image) => statSync(image).ino));
    for (const line of execFileSync("losetup", [
      "--list",
      "--noheadings",
      "--raw",
      "--output",
      "NAME,BACK-INO",
    ])
      .toString()
      .split("\n")) {
      const [device, inode] = line.split(" ");
      if (device && inodes.has(Number(inode))) execFileSync("losetup", ["--detach", device]);
    }
    execFileSync("rm", [
      "-f",
      `${DISK_LINK_DIR}/${volumeName(t.instance, id)}`,
      `${DISK_LINK_DIR}/${stateVolumeName(t.instance, id)}`,
    ]);

    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");
    expect((await sh("cat /workspace/kept.txt")).out).toBe("still here\n");
    expect(await fsSize("/workspace")).toBeLessThanOrEqual(WORKSPACE_MB * MB);
  });

  it("leaves no volume, image file, link or loop device behind once deleted", async () => {
    const inodes = images.map((image) => statSync(image).ino);
    await t.api.workspace.delete.mutate({ workspaceId: id });
    for (const v of [volumeName(t.instance, id), stateVolumeName(t.instance, id)]) {
      await expect(docker.getVolume(v).inspect()).rejects.toMatchObject({ statusCode: 404 });
      expect(existsSync(`${DISK_LINK_DIR}/${v}`)).toBe(false);
    }
    for (const image of images) expect(existsSync(image)).toBe(false);
    expect(loopBackingInodes().filter((ino) => inodes.includes(ino))).toEqual([]);
  });
});

describe("a service that turns disk quotas on", () => {
  const instance = newInstance();
  const image = requireImage();
  const limits = { instance, runtime: "runc" as const, memoryBytes: 256 * MB, nanoCpus: 1e9, pidsLimit: 64 };
  const unbounded = new DockerDriver({ ...limits, disk: { workspaceMb: 0, stateMb: 16, toolImage: image } });
  const bounded = new DockerDriver({
    ...limits,
    disk: { workspaceMb: WORKSPACE_MB, stateMb: 16, toolImage: image },
  });
  afterAll(async () => {
    await removeInstance(instance);
  });

  it("keeps running, stopping and deleting a workspace made with plain volumes, and bounds new ones", async () => {
    await unbounded.create({ id: "old", image, egress: false });
    await unbounded.start("old");
    await execIn(instance, "old", ["sh", "-c", "echo kept > /workspace/kept.txt"]);

    await bounded.stop("old");
    await bounded.start("old");
    expect((await execIn(instance, "old", ["cat", "/workspace/kept.txt"])).out).toBe("kept\n");
    await bounded.create({ id: "new", image, egress: false });
    await bounded.start("new");
    expect(await fsSizeIn(instance, "new", "/workspace")).toBeLessThanOrEqual(WORKSPACE_MB * MB);

    for (const id of ["old", "new"]) {
      await bounded.remove(id);
      await expect(docker.getVolume(volumeName(instance, id)).inspect()).rejects.toMatchObject({
        statusCode: 404,
      });
    }
  });

  it("frees at its next start the loop devices of disk images deleted without their release, and no other", async () => {
    await bounded.create({ id: "lost", image, egress: false });
    await bounded.create({ id: "kept", image, egress: false });
    await bounded.start("kept");
    const imagesOf = async (id: string) =>
      Promise.all(
        [volumeName(instance, id), stateVolumeName(instance, id)].map(
          async (v) => (await docker.getVolume(v).inspect()).Labels?.[LABEL_DISK] ?? `(${v} unlabelled)`,
        ),
      );
    const lost = await imagesOf("lost");
    const lostInodes = lost.map((image) => statSync(image).ino);
    const keptInodes = (await imagesOf("kept")).map((image) => statSync(image).ino);
    // What removing an engine's data root does (a swarm node retired): the files go, the devices stay.
    await docker.getContainer(containerName(instance, "lost")).remove({ force: true });
    for (const v of [volumeName(instance, "lost"), stateVolumeName(instance, "lost")])
      await docker.getVolume(v).remove();
    for (const image of lost) rmSync(image);
    expect(loopBackingInodes().filter((ino) => lostInodes.includes(ino))).toHaveLength(2);

    await bounded.reclaimLeftovers();

    expect(loopBackingInodes().filter((ino) => lostInodes.includes(ino))).toEqual([]);
    expect(loopBackingInodes().filter((ino) => keptInodes.includes(ino))).toHaveLength(2);
    await execIn(instance, "kept", ["sh", "-c", "echo still > /workspace/still.txt"]);
    expect((await execIn(instance, "kept", ["cat", "/workspace/still.txt"])).out).toBe("still\n");
    await bounded.remove("lost");
    await bounded.remove("kept");
  });
});
