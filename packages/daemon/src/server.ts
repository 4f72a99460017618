import { realpath, stat } from "node:fs/promises";
import type { Readable, Writable } from "node:stream";
import {
  containerLayout,
  DAEMON_PROTOCOL_VERSION,
  type DaemonMethod,
  type DaemonNotification,
  type DaemonNotifications,
  daemonMethods,
} from "@coder/protocol";
import { createSessionStore, DEFAULT_SPILL_DIR, type ToolsConfig } from "@coder/tools";
import { fileMethods } from "./files";
import { gitMethods } from "./git";
import { watchRepository } from "./git/git-watch";
import { type DaemonHandler, Dispatcher } from "./rpc/dispatch";
import { connectStreams } from "./rpc/transport";
import { searchMethods } from "./search";
import { snapshotMethods } from "./snapshot";
import { type ToolRunner, toolMethods } from "./tools";
import { ChangeBatcher } from "./watch/batcher";
import { watchWorkspace } from "./watch/watcher";

export interface DaemonServerOptions {
  /** The workspace folder every path is confined to. */
  root: string;
  /** Where requests arrive and where replies and notifications go (stdin/stdout in production). */
  input: Readable;
  output: Writable;
  runner: ToolRunner;
  /** Where tools spill outputs that were cut for the model; outside the workspace. */
  spillDir?: string;
  toolsConfig?: ToolsConfig;
  /** The snapshot store (a git directory outside the workspace); default containerLayout.snapshotDir. */
  snapshotDir?: string;
  /** Report file changes as fs.changed (default true). */
  watch?: boolean;
  /** Diagnostics; never stdout, which carries the protocol. */
  log?: (message: string) => void;
}

export interface DaemonServer {
  /** The absolute real path of the workspace root. */
  root: string;
  /** Resolves when the server has shut down (the input ended, or close() was called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

const logToStderr = (message: string) => process.stderr.write(`[coder-daemon] ${message}\n`);

async function realFolder(root: string): Promise<string> {
  const real = await realpath(root);
  if (!(await stat(real)).isDirectory()) throw new Error(`${root} is not a folder`);
  return real;
}

/** Serves the daemon contract (packages/protocol/src/daemon.ts: daemonMethods) on a pair of streams. */
export async function createDaemonServer(options: DaemonServerOptions): Promise<DaemonServer> {
  const root = await realFolder(options.root);
  const log = options.log ?? logToStderr;
  const connection = connectStreams(options.input, options.output, log);
  const notify = <N extends DaemonNotification>(method: N, params: DaemonNotifications[N]) =>
    connection.sendNotification(method, params).catch(() => log(`could not send ${method}`));

  const batcher = new ChangeBatcher((changes) => notify("fs.changed", { changes }));
  const watcher = options.watch === false ? undefined : watchWorkspace(root, (c) => batcher.push(c), log);
  const ready = watcher?.ready ?? Promise.resolve();
  const repository =
    options.watch === false
      ? undefined
      : watchRepository(root, (entries) => notify("git.changed", { entries }), log);

  const methods = {
    // Answered once the watcher has scanned the workspace: a client that got its answer misses
    // no later change. Every other method is served from the start.
    ping: async () => {
      await ready;
      return { version: DAEMON_PROTOCOL_VERSION, pid: process.pid, root };
    },
    ...fileMethods(root),
    ...snapshotMethods(root, options.snapshotDir ?? containerLayout.snapshotDir),
    ...searchMethods({
      root,
      config: options.toolsConfig ?? {},
      sendMatches: (searchId, files) => notify("search.matches", { searchId, files }),
    }),
    ...gitMethods({ root, progress: (callId, line) => notify("git.progress", { callId, line }) }),
    ...toolMethods({
      root,
      runner: options.runner,
      sessions: createSessionStore(),
      spillDir: options.spillDir ?? DEFAULT_SPILL_DIR,
      config: options.toolsConfig ?? {},
      progress: (callId, update) => notify("tools.progress", { callId, update }),
      log,
    }),
  } satisfies { [M in DaemonMethod]: DaemonHandler<M> };
  const dispatcher = new Dispatcher(daemonMethods, methods, log);
  connection.onRequest((method, params, token) => dispatcher.handle(method, params, token));

  let shutdown: Promise<void> | undefined;
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = () => {
    shutdown ??= (async () => {
      dispatcher.abortAll();
      batcher.dispose();
      await watcher?.close();
      await repository?.close();
      connection.dispose();
      markClosed();
    })();
    return shutdown;
  };
  // The client went away (stdin ended): stop everything; a reconnecting service starts a new daemon.
  connection.onClose(() => void close());
  connection.listen();
  return {
    root,
    closed,
    close,
  };
}
