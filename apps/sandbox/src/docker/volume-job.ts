import { randomBytes } from "node:crypto";
import { type Duplex, PassThrough } from "node:stream";
import { containerLayout } from "@coder/protocol";
import type Docker from "dockerode";
import type { ContainerCreateOptions } from "dockerode";
import type { AttachedProcess, VolumeJobSpec } from "../driver/workspace-driver";
import {
  containerName,
  type HardeningOptions,
  hardenedHostConfig,
  LABEL_INSTANCE,
  LABEL_MANAGED,
  volumeName,
} from "./container-spec";
import { demuxWithBackpressure } from "./demux";
import { egressHostConfig } from "./egress/names";

/** Bytes of a job's output held for a reader that has not taken them yet (per stream). */
const OUTPUT_BUFFER = 1 << 20;

/**
 * Marks a job container with its workspace. Not LABEL_WORKSPACE: the driver takes every container
 * with that label for the workspace itself (list, events).
 */
export const LABEL_JOB = "dev.coder.job";

/**
 * The create options of a job beside workspace `id`: the workspace's hardening and limits, its
 * workspace volume only (read-only when the job only reads; never the state volume, never a host
 * path), no restart, no log kept by the engine, removed by the engine when it ends, stdin open
 * once so the job reads what the service sends and then sees EOF.
 */
export function volumeJobSpec(
  id: string,
  spec: VolumeJobSpec,
  opts: HardeningOptions,
): ContainerCreateOptions {
  const { workspace, user } = containerLayout;
  return {
    name: `${containerName(opts.instance, id)}-job-${randomBytes(3).toString("hex")}`,
    Image: spec.image,
    Cmd: spec.cmd,
    User: `${user.uid}:${user.uid}`,
    WorkingDir: workspace,
    Env: [`HOME=${user.home}`, "LANG=C.UTF-8", `USER=${user.name}`, ...(spec.env ?? [])],
    Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: opts.instance, [LABEL_JOB]: id },
    NetworkDisabled: spec.network === "none",
    AttachStdin: true,
    OpenStdin: true,
    StdinOnce: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: {
      ...hardenedHostConfig(opts),
      ...(spec.network === "egress" ? egressHostConfig(opts.instance) : { NetworkMode: "none" }),
      Mounts: [
        {
          Type: "volume",
          Source: volumeName(opts.instance, id),
          Target: workspace,
          ReadOnly: spec.readOnly === true,
        },
      ],
      LogConfig: { Type: "none", Config: {} },
      // Gone once it ends, also when the service that started it is gone (removed here otherwise).
      AutoRemove: true,
    },
  };
}

/**
 * Creates, attaches and starts the job; its streams are the job's stdio. The container is removed
 * when the job ends, and `close()` kills it first.
 */
export async function startVolumeJob(
  docker: Docker,
  options: ContainerCreateOptions,
): Promise<AttachedProcess> {
  const container = await docker.createContainer(options);
  const removed = () =>
    container.remove({ force: true }).then(
      () => undefined,
      () => undefined,
    );
  try {
    // With hijack the engine hands over the connection itself: one socket both ways.
    const stream = (await container.attach({
      stream: true,
      hijack: true,
      stdin: true,
      stdout: true,
      stderr: true,
    })) as unknown as Duplex;
    // Room for a few of the engine's reads: a small buffer would pause the engine's stream after
    // every chunk of a large output (an export) and halve its speed.
    const stdout = new PassThrough({ highWaterMark: OUTPUT_BUFFER });
    const stderr = new PassThrough({ highWaterMark: OUTPUT_BUFFER });
    demuxWithBackpressure(stream, stdout, stderr);
    // Asked before the start, so a quick exit is not missed; "next-exit", or a container that has
    // not started yet counts as exited (code 0).
    const waited = container.wait({ condition: "next-exit" }) as Promise<{ StatusCode: number }>;
    await container.start();
    const exited = waited.then(
      async ({ StatusCode }) => {
        await ended(stream);
        stdout.end();
        stderr.end();
        await removed();
        return StatusCode;
      },
      async () => {
        stdout.end();
        stderr.end();
        await removed();
        return null;
      },
    );
    const close = async () => {
      await container.kill().catch(() => undefined);
      stream.destroy();
      await exited;
    };
    return { stdin: stream, stdout, stderr, exited, close };
  } catch (err) {
    await removed();
    throw err;
  }
}

/** Resolves once the attached stream has delivered everything (or broke). */
function ended(stream: Duplex): Promise<void> {
  return new Promise((resolve) => {
    if (stream.readableEnded || stream.destroyed) return resolve();
    stream.once("end", resolve);
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
}
