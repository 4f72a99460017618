import { PassThrough } from "node:stream";
import Docker from "dockerode";
import {
  containerName,
  containerSpec,
  type HardeningOptions,
  LABEL_INSTANCE,
  LABEL_MANAGED,
  LABEL_WORKSPACE,
  volumeNames,
} from "./container-spec";
import type {
  AttachedProcess,
  ContainerState,
  DriverEvent,
  TtyProcess,
  WorkspaceDriver,
  WorkspaceSpec,
} from "./driver";
import { PID_ACK, processCloser, readReportedPid, reportingPid } from "./exec-process";

/** Who exec'd processes run as, and so who may signal them. */
const EXEC_USER = "coder";

function statusCode(err: unknown): number | undefined {
  return typeof err === "object" && err !== null && "statusCode" in err
    ? (err as { statusCode?: number }).statusCode
    : undefined;
}

/** Runs workspaces on the Docker engine that `DOCKER_HOST` (or the local socket) points to. */
export class DockerDriver implements WorkspaceDriver {
  readonly docker: Docker;

  constructor(
    private readonly opts: HardeningOptions,
    docker?: Docker,
  ) {
    this.docker = docker ?? new Docker();
  }

  private container(id: string) {
    return this.docker.getContainer(containerName(this.opts.instance, id));
  }

  async create(spec: WorkspaceSpec): Promise<void> {
    for (const name of volumeNames(this.opts.instance, spec.id)) {
      await this.docker.createVolume({
        Name: name,
        Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: this.opts.instance, [LABEL_WORKSPACE]: spec.id },
      });
    }
    await this.docker.createContainer(containerSpec(spec, this.opts));
  }

  async start(id: string): Promise<void> {
    try {
      await this.container(id).start();
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
  }

  async remove(id: string): Promise<void> {
    try {
      await this.container(id).remove({ force: true, v: true });
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    for (const name of volumeNames(this.opts.instance, id)) {
      try {
        await this.docker.getVolume(name).remove();
      } catch (err) {
        if (statusCode(err) !== 404) throw err;
      }
    }
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

  async exec(id: string, cmd: string[], options: { env?: string[] } = {}): Promise<AttachedProcess> {
    const container = this.container(id);
    const exec = await container.exec({
      Cmd: reportingPid(cmd, false),
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: EXEC_USER,
      WorkingDir: "/workspace",
      Env: options.env,
    });
    const stream = await exec.start({ hijack: true, stdin: true });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    this.docker.modem.demuxStream(stream, stdout, stderr);
    const exited = new Promise<number | null>((resolve) => {
      const done = () => {
        stdout.end();
        stderr.end();
        exec.inspect().then(
          (info) => resolve(info.ExitCode ?? null),
          () => resolve(null),
        );
      };
      stream.once("end", done);
      stream.once("close", done);
      stream.once("error", done);
    });
    const pid = await readReportedPid(stderr).catch((err) => {
      stream.destroy();
      throw err;
    });
    const close = processCloser({ container, user: EXEC_USER, pid, stream, tty: false });
    return { stdin: stream, stdout, stderr, exited, close };
  }

  async execTty(id: string, cmd: string[], size: { cols: number; rows: number }): Promise<TtyProcess> {
    const container = this.container(id);
    const exec = await container.exec({
      Cmd: reportingPid(cmd, true),
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: true,
      User: EXEC_USER,
      WorkingDir: "/workspace",
      Env: ["TERM=xterm-256color", "LANG=C.UTF-8", "COLORTERM=truecolor"],
    });
    const stream = await exec.start({ hijack: true, stdin: true, Tty: true });
    const pid = await readReportedPid(stream).catch((err) => {
      stream.destroy();
      throw err;
    });
    const close = processCloser({ container, user: EXEC_USER, pid, stream, tty: true });
    stream.write(PID_ACK);
    const resize = async (cols: number, rows: number) => {
      await exec.resize({ w: cols, h: rows }).catch(() => undefined);
    };
    await resize(size.cols, size.rows);
    return { stream, resize, close };
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
