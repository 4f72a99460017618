import { PassThrough } from "node:stream";
import { containerLayout } from "@coder/protocol";
import type Docker from "dockerode";
import type { AttachedProcess, TtyProcess } from "../driver/workspace-driver";
import type { ClosingProcesses } from "./closing-processes";
import { demuxWithBackpressure } from "./demux";
import { PID_ACK, processCloser, readReportedPid, reportingPid } from "./exec-process";

/** Who exec'd processes run as, and so who may signal them. */
const EXEC_USER = containerLayout.user.name;

/** Starts `cmd` in a workspace's running container with its stdio attached (no TTY). */
export async function execAttached(
  container: Docker.Container,
  cmd: string[],
  options: { env?: string[]; backpressure?: boolean },
  closing: ClosingProcesses,
): Promise<AttachedProcess> {
  const exec = await container.exec({
    Cmd: reportingPid(cmd, false),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    User: EXEC_USER,
    WorkingDir: containerLayout.workspace,
    Env: options.env,
  });
  const stream = await exec.start({ hijack: true, stdin: true });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  if (options.backpressure) demuxWithBackpressure(stream, stdout, stderr);
  else container.modem.demuxStream(stream, stdout, stderr);
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
  const close = closing.tracked(processCloser({ container, user: EXEC_USER, pid, stream, tty: false }));
  return { stdin: stream, stdout, stderr, exited, close };
}

/** Starts `cmd` on a TTY in a workspace's running container (terminals). */
export async function execOnTty(
  container: Docker.Container,
  cmd: string[],
  size: { cols: number; rows: number },
  closing: ClosingProcesses,
): Promise<TtyProcess> {
  const exec = await container.exec({
    Cmd: reportingPid(cmd, true),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    User: EXEC_USER,
    WorkingDir: containerLayout.workspace,
    Env: ["TERM=xterm-256color", "LANG=C.UTF-8", "COLORTERM=truecolor"],
  });
  const stream = await exec.start({ hijack: true, stdin: true, Tty: true });
  const pid = await readReportedPid(stream).catch((err) => {
    stream.destroy();
    throw err;
  });
  const close = closing.tracked(processCloser({ container, user: EXEC_USER, pid, stream, tty: true }));
  stream.write(PID_ACK);
  const resize = async (cols: number, rows: number) => {
    await exec.resize({ w: cols, h: rows }).catch(() => undefined);
  };
  await resize(size.cols, size.rows);
  return { stream, resize, close };
}
