// Test support: a WorkspaceDriver whose `exec` runs the command on this machine, so the LSP proxy
// can be tested without Docker. Only `exec` is implemented.
import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import type { AttachedProcess, WorkspaceDriver } from "../../driver/workspace-driver";

export const ECHO_SERVER = new URL("./echo-server.mjs", import.meta.url).pathname;

/** The driver, and every process it started (to watch them end). */
export function localDriver(): { driver: WorkspaceDriver; processes: AttachedProcess[] } {
  const unsupported = () => Promise.reject(new Error("not supported by the local test driver"));
  const processes: AttachedProcess[] = [];
  const closing = new Set<Promise<void>>();
  const driver: WorkspaceDriver = {
    ready: async () => undefined,
    prepare: async () => undefined,
    create: unsupported,
    start: unsupported,
    stop: unsupported,
    remove: unsupported,
    removeAll: unsupported,
    state: unsupported,
    list: unsupported,
    listSpares: unsupported,
    fingerprint: () => "local",
    execTty: unsupported,
    volumeJob: unsupported,
    browserJob: unsupported,
    settle: async () => {
      await Promise.all(closing);
    },
    events: () => {
      throw new Error("not supported by the local test driver");
    },
    async exec(_id, cmd): Promise<AttachedProcess> {
      const [program, ...args] = cmd as [string, ...string[]];
      const child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] });
      child.stdin.on("error", () => {});
      // Like the hijacked exec stream: a duplex whose end (or destruction) closes the process's stdin.
      const stdin = new PassThrough();
      stdin.pipe(child.stdin);
      stdin.on("close", () => child.stdin.end());
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      const proc = {
        stdin,
        stdout: child.stdout,
        stderr: child.stderr,
        exited,
        // Like the Docker driver: EOF first, a signal only for a server that ignores it.
        close() {
          stdin.destroy();
          const timer = setTimeout(() => child.kill(), 2000);
          const ended = exited.then(() => clearTimeout(timer));
          closing.add(ended);
          void ended.finally(() => closing.delete(ended));
          return ended;
        },
      };
      processes.push(proc);
      return proc;
    },
  };
  return { driver, processes };
}
