import type { WriteResult } from "@coder/protocol";
import type { DaemonConnection } from "../daemon/daemon-connection";

export interface FileWrite {
  path: string;
  content: string;
  /** The write is refused (CONFLICT) when the file is no longer this version. */
  expectedVersion?: string;
}

/**
 * The one way the service writes a file for a person: an editor save and a replace across files
 * both come through here (atomic, version-checked), so the watcher, snapshots and whatever follows
 * writes see them alike.
 */
export function writeWorkspaceFile(
  daemon: Pick<DaemonConnection, "request">,
  write: FileWrite,
): Promise<WriteResult> {
  return daemon.request("fs.write", write);
}
