import type { DaemonRequests, ToolDefinition, ToolsExecuteResult, TurnDiff } from "@coder/protocol";
import { builtinFacts, filesReached } from "@coder/tools";
import { DaemonCallError, type DaemonConnection } from "../../daemon/daemon-connection";
import type { DaemonPool } from "../../daemon/daemon-pool";

export interface DaemonToolCall {
  tool: string;
  args: Record<string, unknown>;
  sessionId: string;
  /** Unique across the service: progress notifications are routed by it. */
  callId: string;
  agent: string;
  messageId: string;
}

/** What the agent runtime needs from a workspace: its tools, and reading a file for the prompt. */
export interface WorkspacePort {
  listTools(filter: { agent: string; model: string }): Promise<ToolDefinition[]>;
  /** `prompter`: whose prompt the agent works on (its edits in live documents carry the name). */
  executeTool(
    call: DaemonToolCall,
    onProgress: (update: Record<string, unknown>) => void,
    signal: AbortSignal,
    prompter?: string | null,
  ): Promise<ToolsExecuteResult>;
  /**
   * Keeps the full text of an output the service cut for the model in the workspace's spill
   * folder; answers the path the model can `read` it at inside the container.
   */
  saveOutput(callId: string, text: string): Promise<string>;
  /** A text file's content, or undefined when it is missing, binary or too large. */
  readText(path: string, maxBytes: number): Promise<string | undefined>;
  /** Snapshots of the workspace's files (turn diffs and reverts). */
  snapshots: SnapshotPort;
}

export interface SnapshotPort {
  /** Records the files now; returns the snapshot's id. */
  take(): Promise<string>;
  /** What changed from `from` to `to` (to the current files without `to`). */
  diff(from: string, to?: string): Promise<TurnDiff>;
  /** Makes the files that differ between `from` and `to` look as in `from`. */
  restore(from: string, to: string, paths?: string[]): Promise<DaemonRequests["snapshot.restore"]["result"]>;
}

/** The snapshot methods over any way of sending the daemon a request. */
export function snapshotPort(
  request: <M extends "snapshot.take" | "snapshot.diff" | "snapshot.restore">(
    method: M,
    params: DaemonRequests[M]["params"],
  ) => Promise<DaemonRequests[M]["result"]>,
): SnapshotPort {
  return {
    take: async () => (await request("snapshot.take", {})).id,
    diff: (from, to) => request("snapshot.diff", to === undefined ? { from } : { from, to }),
    restore: (from, to, paths) => request("snapshot.restore", paths ? { from, to, paths } : { from, to }),
  };
}

/**
 * The files people have open live in the workspace, as the agent's tool calls must meet them.
 * `paths` are as the tool's arguments name them (relative to the workspace or absolute), or
 * "any" for a call that may reach every file (a shell, a search).
 */
export interface LiveFiles {
  /** Writes typing not yet on disk, so the tool works on the text people see. */
  flush(workspaceId: string, paths: readonly string[] | "any"): Promise<void>;
  /**
   * The tool may change `paths`: what changes there shows as the agent's edits (working for
   * `prompter`); the returned function, called when the tool is done, merges them into the open
   * documents at once.
   */
  agentChanging(
    workspaceId: string,
    paths: readonly string[] | "any",
    prompter?: string | null,
  ): () => Promise<void>;
}

/** Both lists together ("any" wins). */
function union(a: readonly string[] | "any", b: readonly string[] | "any"): readonly string[] | "any" {
  return a === "any" || b === "any" ? "any" : [...a, ...b];
}

/**
 * The workspace's daemon, reached through the daemon pool. Calls go straight to the daemon
 * (asking the engine whether the container runs would cost more than the call); when it cannot
 * be reached, the workspace's state explains why (stopped, missing). A tool call first flushes
 * the live documents and, if it may change files, merges them right after.
 */
export function daemonWorkspace(daemons: DaemonPool, workspaceId: string, live?: LiveFiles): WorkspacePort {
  const call = <T>(run: (daemon: DaemonConnection) => Promise<T>): Promise<T> =>
    daemons.call(workspaceId, run);
  return {
    listTools: (filter) => call(async (daemon) => (await daemon.request("tools.list", filter)).tools),
    executeTool: (request, onProgress, signal, prompter) =>
      call(async (daemon) => {
        // Which files the call reaches, from the tool's definition.
        const facts = builtinFacts(request.tool);
        const reads = filesReached(facts.reads, request.args);
        const changes = filesReached(facts.changes, request.args);
        await live?.flush(workspaceId, union(reads, changes));
        const changed =
          changes === "any" || changes.length > 0
            ? live?.agentChanging(workspaceId, changes, prompter)
            : undefined;
        const stop = daemons.onToolProgress(workspaceId, request.callId, onProgress);
        try {
          return await daemon.request("tools.execute", request, signal);
        } finally {
          stop();
          await changed?.();
        }
      }),
    saveOutput: (callId, content) =>
      call(async (daemon) => (await daemon.request("tools.spill", { callId, content })).path),
    readText: (path, maxBytes) =>
      call(async (daemon) => {
        try {
          const file = await daemon.request("fs.read", { path, maxBytes });
          return file.kind === "text" ? file.content : undefined;
        } catch (error) {
          if (error instanceof DaemonCallError && error.kind !== "unavailable") return undefined;
          throw error;
        }
      }),
    snapshots: snapshotPort((method, params) => call((daemon) => daemon.request(method, params))),
  };
}
