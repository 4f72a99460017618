import type { FileChange, ReadResult, TreeResult, WriteResult } from "./files";
import type { ToolDefinition, ToolResult } from "./tools";

/**
 * The JSON-RPC contract between the sandbox service and the daemon inside a workspace container
 * (Content-Length framing over the stdio of one long-lived `docker exec`). Paths are relative to
 * the workspace root; the daemon refuses paths that leave it with code DaemonErrorCode.PathDenied.
 */
export const DAEMON_PROTOCOL_VERSION = 1;

export const DaemonErrorCode = {
  PathDenied: -32001,
  NotFound: -32002,
  Conflict: -32003,
  IsDirectory: -32004,
  NotDirectory: -32005,
  Exists: -32006,
  Io: -32010,
} as const;

export interface DaemonRequests {
  ping: { params: Record<string, never>; result: { version: number; pid: number; root: string } };
  "fs.tree": { params: { path: string; depth: number }; result: TreeResult };
  "fs.stat": {
    params: { path: string };
    result: {
      path: string;
      isDir: boolean;
      isSymlink: boolean;
      size: number;
      mtimeMs: number;
      version: string;
    };
  };
  "fs.read": { params: { path: string; maxBytes: number }; result: ReadResult };
  "fs.write": { params: { path: string; content: string; expectedVersion?: string }; result: WriteResult };
  "fs.mkdir": { params: { path: string }; result: { path: string } };
  "fs.rename": { params: { from: string; to: string }; result: { from: string; to: string } };
  "fs.delete": { params: { path: string }; result: { path: string } };
  "tools.list": { params: { agent?: string; model?: string }; result: { tools: ToolDefinition[] } };
  /** Cancelling the request ($/cancelRequest) aborts the tool. */
  "tools.execute": {
    params: { tool: string; args: Record<string, unknown>; sessionId: string; callId: string };
    result: { result: ToolResult; output: string };
  };
}

export interface DaemonNotifications {
  /** Batched file-system changes under the workspace (debounced by the daemon). */
  "fs.changed": { changes: FileChange[] };
  /** Progress of a running tool (bash output so far, ...), from ctx.metadata(). */
  "tools.progress": { callId: string; update: Record<string, unknown> };
}

export type DaemonMethod = keyof DaemonRequests;
