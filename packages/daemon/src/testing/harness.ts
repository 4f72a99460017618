// Test support: a daemon served over in-memory streams against a fresh temporary folder.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { DaemonMethod, DaemonNotifications, DaemonRequests } from "@coder/protocol";
import {
  type CancellationToken,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { createDaemonServer, type DaemonServer } from "../server";
import type { ToolRunner } from "../tools";

/** A runner with no tools, for tests that do not exercise tools. */
export const noTools: ToolRunner = {
  definitions: () => [],
  execute: async (tool) => ({
    result: { ok: false, error: { code: "unknown_tool", message: `no tool ${tool}` } },
    output: "",
  }),
};

/** A notification the daemon sent, method and params correlated. */
export type Notification = {
  [N in keyof DaemonNotifications]: { method: N; params: DaemonNotifications[N] };
}[keyof DaemonNotifications];

export interface TestDaemon {
  root: string;
  server: DaemonServer;
  client: MessageConnection;
  /** The client's end of the daemon's stdin. */
  input: PassThrough;
  notifications: Notification[];
  request<M extends DaemonMethod>(
    method: M,
    params: DaemonRequests[M]["params"],
    token?: CancellationToken,
  ): Promise<DaemonRequests[M]["result"]>;
  /** The error a request fails with (the test fails if it succeeds). */
  failure(method: DaemonMethod, params: unknown): Promise<ResponseError<unknown>>;
  /** Resolves once a notification matching `predicate` has arrived. */
  until<N extends keyof DaemonNotifications>(
    method: N,
    predicate: (params: DaemonNotifications[N]) => boolean,
  ): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestDaemon(
  options: { runner?: ToolRunner; watch?: boolean; ports?: boolean; logs?: string[] } = {},
): Promise<TestDaemon> {
  const root = await mkdtemp(path.join(os.tmpdir(), "coder-daemon-"));
  const input = new PassThrough();
  const output = new PassThrough();
  const server = await createDaemonServer({
    root,
    input,
    output,
    runner: options.runner ?? noTools,
    watch: options.watch ?? false,
    // On the test machine /proc shows every process of the host: only the tests of ports poll it.
    watchPorts: options.ports ?? false,
    spillDir: `${root}-spill`,
    snapshotDir: `${root}-snapshots.git`,
    log: (message) => options.logs?.push(message),
  });
  const client = createMessageConnection(new StreamMessageReader(output), new StreamMessageWriter(input));
  const notifications: Notification[] = [];
  const waiters = new Set<() => void>();
  client.onNotification((method, params) => {
    notifications.push({ method, params } as Notification);
    for (const check of waiters) check();
  });
  client.listen();

  const request = <M extends DaemonMethod>(
    method: M,
    params: DaemonRequests[M]["params"],
    token?: CancellationToken,
  ) =>
    // A trailing undefined would be sent as a second positional param; pass the token only if given.
    token
      ? client.sendRequest<DaemonRequests[M]["result"]>(method, params, token)
      : client.sendRequest<DaemonRequests[M]["result"]>(method, params);

  // As the service does: once ping has answered, the watcher reports every change.
  await request("ping", {});
  return {
    root: server.root,
    server,
    client,
    input,
    notifications,
    request,
    async failure(method, params) {
      try {
        await client.sendRequest(method, params);
      } catch (error) {
        if (error instanceof ResponseError) return error;
        throw error;
      }
      throw new Error(`${method} succeeded, but a failure was expected`);
    },
    until(method, predicate) {
      return new Promise<void>((resolve) => {
        const check = () => {
          const hit = notifications.some(
            (n) => n.method === method && predicate(n.params as DaemonNotifications[typeof method]),
          );
          if (hit) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      client.dispose();
      await server.close();
      await rm(root, { recursive: true, force: true });
      await rm(`${root}-spill`, { recursive: true, force: true });
      await rm(`${root}-snapshots.git`, { recursive: true, force: true });
    },
  };
}
