import type { FileChange } from "@coder/protocol";
import { parentOf } from "../../lib/paths/workspace-path";

/**
 * The folders whose listings a batch of changes makes stale: the parent of every entry that
 * appeared or disappeared. A content change leaves listings alone (the tree shows names only).
 */
export function foldersToRefresh(changes: readonly FileChange[]): string[] {
  const folders = new Set<string>();
  for (const change of changes) {
    if (change.type !== "change") folders.add(parentOf(change.path));
  }
  return [...folders];
}
