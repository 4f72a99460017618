import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { createDaemonServer, type DaemonServer } from "@coder/daemon";
import { containerLayout } from "@coder/protocol";
import { createDefaultRegistry } from "@coder/tools";
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { snapshotPort, type WorkspacePort } from "../workspace/workspace-port";

export interface LocalWorkspace {
  root: string;
  /** Where the daemon keeps cut outputs: a folder of its own under the container's spill folder. */
  spillDir: string;
  port: WorkspacePort;
  close(): Promise<void>;
}

/**
 * The real daemon with the real tools, in this process, on a temporary folder: what a workspace
 * container runs, without the container. For tests of the runtime that need no Docker.
 */
export async function startLocalWorkspace(): Promise<LocalWorkspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), "coder-agent-ws-"));
  // Under the path the container uses, so the service lets the model read what is spilled there.
  await mkdir(containerLayout.spillDir, { recursive: true });
  const spillDir = await mkdtemp(path.join(containerLayout.spillDir, "agent-test-"));
  const snapshotDir = `${root}-snapshots.git`;
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const toolsConfig = { workspaceRoot: root, ripgrep: false as const };
  const server: DaemonServer = await createDaemonServer({
    root,
    input: toServer,
    output: fromServer,
    runner: createDefaultRegistry(toolsConfig),
    spillDir,
    snapshotDir,
    toolsConfig,
    watch: false,
    log: () => {},
  });
  const client: MessageConnection = createMessageConnection(
    new StreamMessageReader(fromServer),
    new StreamMessageWriter(toServer),
  );
  const progress = new Map<string, (update: Record<string, unknown>) => void>();
  client.onNotification("tools.progress", (params: { callId: string; update: Record<string, unknown> }) =>
    progress.get(params.callId)?.(params.update),
  );
  client.listen();

  const port: WorkspacePort = {
    async listTools(filter) {
      return (
        await client.sendRequest<{ tools: Awaited<ReturnType<WorkspacePort["listTools"]>> }>(
          "tools.list",
          filter,
        )
      ).tools;
    },
    async executeTool(call, onProgress, signal) {
      const cancel = new CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      signal.addEventListener("abort", onAbort, { once: true });
      progress.set(call.callId, onProgress);
      try {
        return await client.sendRequest("tools.execute", call, cancel.token);
      } finally {
        progress.delete(call.callId);
        signal.removeEventListener("abort", onAbort);
        cancel.dispose();
      }
    },
    async saveOutput(callId, content) {
      return (await client.sendRequest<{ path: string }>("tools.spill", { callId, content })).path;
    },
    async readText(file, maxBytes) {
      try {
        const result = await client.sendRequest<{ kind: string; content: string }>("fs.read", {
          path: file,
          maxBytes,
        });
        return result.kind === "text" ? result.content : undefined;
      } catch (error) {
        if (error instanceof ResponseError) return undefined;
        throw error;
      }
    },
    snapshots: snapshotPort((method, params) => client.sendRequest(method, params)),
  };

  return {
    root: server.root,
    spillDir,
    port,
    async close() {
      client.dispose();
      await server.close();
      await rm(root, { recursive: true, force: true });
      await rm(spillDir, { recursive: true, force: true });
      await rm(snapshotDir, { recursive: true, force: true });
    },
  };
}
