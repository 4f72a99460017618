import type { FileChange, ReadResult, TreeResult, WriteResult } from "./files";
import type {
  BytesResult,
  FileListResult,
  FileMatches,
  ReplacementPlan,
  SearchSummary,
  TextQuery,
} from "./search";
import type { TurnDiff } from "./session";
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
  /** A search pattern or glob that ripgrep refuses. */
  BadPattern: -32007,
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
  /**
   * Replaces a file atomically. With `expectedVersion` (mtime and size) or `expectedHash` (SHA-256
   * of its bytes, base64url) it fails with Conflict, writing nothing, unless the file still is that.
   */
  "fs.write": {
    params: { path: string; content: string; expectedVersion?: string; expectedHash?: string };
    result: WriteResult;
  };
  "fs.mkdir": { params: { path: string }; result: { path: string } };
  "fs.rename": { params: { from: string; to: string }; result: { from: string; to: string } };
  "fs.delete": { params: { path: string }; result: { path: string } };
  /** A file's bytes, base64, for the image viewer; above `maxBytes` only its size. */
  "fs.readBytes": { params: { path: string; maxBytes: number }; result: BytesResult };
  /** Every file of the workspace (ripgrep's walk: `.gitignore` respected, `.git` left out), sorted. */
  "search.files": { params: { limit: number }; result: FileListResult };
  /**
   * Searches file contents with ripgrep; the matches arrive as `search.matches` notifications
   * carrying `searchId` while it runs, the answer is the summary. Cancelling stops ripgrep.
   */
  "search.text": {
    params: { searchId: string; query: TextQuery; maxMatches: number };
    result: SearchSummary;
  };
  /** What one file would hold with every match of `query` replaced (ripgrep's own replace); writes nothing. */
  "search.replaceIn": {
    params: { path: string; query: TextQuery; replacement: string };
    result: ReplacementPlan;
  };
  "tools.list": { params: { agent?: string; model?: string }; result: { tools: ToolDefinition[] } };
  /** Cancelling the request ($/cancelRequest) aborts the tool. */
  "tools.execute": {
    params: { tool: string; args: Record<string, unknown>; sessionId: string; callId: string };
    result: { result: ToolResult; output: string };
  };
  /**
   * Keeps the full text of an output the service cut for the model in the spill folder (outside
   * the workspace, where the `read` tool reaches); answers its path in the container.
   */
  "tools.spill": { params: { callId: string; content: string }; result: { path: string } };
  /**
   * Records the workspace's files (minus .gitignore'd ones, .git and files over 2 MB) outside the
   * workspace; the id is the snapshot's tree hash.
   */
  "snapshot.take": { params: Record<string, never>; result: { id: string } };
  /** What changed from snapshot `from` to `to` (the current files when `to` is omitted). */
  "snapshot.diff": { params: { from: string; to?: string }; result: TurnDiff };
  /**
   * Makes the files that differ between `from` and `to` (only those under `paths`, when given)
   * look as in `from`; nothing else is touched.
   */
  "snapshot.restore": {
    params: { from: string; to: string; paths?: string[] };
    result: { restored: string[]; removed: string[] };
  };
}

export interface DaemonNotifications {
  /** Batched file-system changes under the workspace (debounced by the daemon). */
  "fs.changed": { changes: FileChange[] };
  /** Progress of a running tool (bash output so far, ...), from ctx.metadata(). */
  "tools.progress": { callId: string; update: Record<string, unknown> };
  /** Matches found by a running `search.text`, grouped by file. */
  "search.matches": { searchId: string; files: FileMatches[] };
}

export type DaemonMethod = keyof DaemonRequests;
