import type { Duplex, Readable } from "node:stream";
import type Docker from "dockerode";

/**
 * `docker exec` never ends a process when its attached stream closes: a TTY (a tmux client) gets no
 * hangup, and a process that ignores stdin EOF keeps running. So every exec starts through a shell
 * that first reports its pid (as the container sees it, valid under runc and gVisor and against a
 * remote engine) and then becomes the command; ending the process is a second, short exec that
 * signals that pid.
 */

/** The pid report is the first line the process writes ("4194304\r\n" on a TTY). */
const PID_LINE_MAX_BYTES = 32;
/** A process without a TTY gets EOF on stdin first and this long to exit on its own. */
const STDIN_EOF_GRACE_MS = 2000;
/** Tenths of a second between SIGTERM and SIGKILL, counted inside the container. */
const TERM_GRACE_TENTHS = 30;

/** Signals "$1" with TERM, then KILL if it is still there after the grace period; 0 when it is gone. */
const END_SCRIPT = `kill -TERM "$1" 2>/dev/null || exit 0
i=0
while kill -0 "$1" 2>/dev/null; do
  i=$((i + 1))
  if [ "$i" -gt ${TERM_GRACE_TENTHS} ]; then kill -KILL "$1" 2>/dev/null; exit 0; fi
  sleep 0.1
done`;

/**
 * The command line to exec in place of `cmd`: writes its pid on stderr, then execs `cmd` (same pid).
 * On a TTY the pid waits for the service's acknowledging newline (with echo off, so it leaves no
 * trace): tmux flushes the terminal's unread output when it starts, which would drop the report.
 */
export function reportingPid(cmd: readonly string[], tty: boolean): string[] {
  const report = tty
    ? 'saved=$(stty -g) && stty -echo && echo "$$" && read -r _ && stty "$saved"'
    : 'echo "$$" >&2';
  return ["/bin/sh", "-c", `${report} && exec "$@"`, "coder-exec", ...cmd];
}

/** What acknowledges the pid report on a TTY (see reportingPid). */
export const PID_ACK = "\n";

/**
 * Reads the pid report from the start of `stream` and puts back whatever followed it, so readers
 * see the process's own output only. Rejects when the stream ends first or starts with anything else.
 */
export function readReportedPid(stream: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const done = (result: number | Error) => {
      stream.off("readable", onReadable);
      stream.off("end", onEnd);
      stream.off("error", onEnd);
      if (typeof result === "number") resolve(result);
      else reject(result);
    };
    const onEnd = () => done(new Error("the process ended before it started"));
    const onReadable = () => {
      for (let chunk: Buffer | null = stream.read(); chunk !== null; chunk = stream.read()) {
        head = Buffer.concat([head, chunk]);
        const newline = head.indexOf(0x0a);
        if (newline < 0 && head.length <= PID_LINE_MAX_BYTES) continue;
        const line = head.subarray(0, Math.max(newline, 0)).toString("latin1").trim();
        const pid = /^\d{1,10}$/.test(line) ? Number(line) : 0;
        // 0 and 1 would make `kill` signal a whole process group or the container's init.
        if (pid <= 1) return done(new Error("the process did not report its pid"));
        const rest = head.subarray(newline + 1);
        done(pid);
        if (rest.length > 0) stream.unshift(rest);
        return;
      }
    };
    stream.on("readable", onReadable);
    stream.once("end", onEnd);
    stream.once("error", onEnd);
  });
}

/** Ends a pid in the container; a stopped or removed container took its processes with it. */
async function signalToEnd(container: Docker.Container, user: string, pid: number): Promise<void> {
  try {
    const exec = await container.exec({
      Cmd: ["/bin/sh", "-c", END_SCRIPT, "coder-end", String(pid)],
      User: user,
      AttachStdout: true,
      AttachStderr: true,
    });
    const output = await exec.start({});
    output.resume();
    await new Promise<void>((resolve) => {
      output.once("end", resolve);
      output.once("close", resolve);
      output.once("error", () => resolve());
    });
  } catch {
    // 404/409: the container is gone or stopped, so is the process. Any other engine failure
    // leaves nothing this side could do; the stream is dropped all the same.
  }
}

/**
 * The `close()` of an exec'd process: it resolves once the process has ended (or its container
 * has), never rejects, and runs once however often it is called. `stream` is the exec's attached
 * stream; its end means the process exited, so nothing is signalled then.
 */
export function processCloser(options: {
  container: Docker.Container;
  user: string;
  pid: number;
  stream: Duplex;
  tty: boolean;
}): () => Promise<void> {
  const { container, user, pid, stream, tty } = options;
  // A write racing the close (after EOF, after destroy) errors; unheard, that would crash the service.
  stream.on("error", () => undefined);
  let exited = false;
  const ended = new Promise<void>((resolve) =>
    stream.once("end", () => {
      exited = true;
      resolve();
    }),
  );
  const endedWithin = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      void ended.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  let closing: Promise<void> | undefined;
  const close = async () => {
    // A TTY gets nothing from a closed input; other processes may exit cleanly on EOF.
    if (!tty && !exited && !stream.destroyed) {
      stream.end();
      await endedWithin(STDIN_EOF_GRACE_MS);
    }
    if (!exited) await signalToEnd(container, user, pid);
    stream.destroy();
  };
  return () => {
    closing ??= close();
    return closing;
  };
}
