import type { Workspace, WorkspaceEvent } from "@coder/protocol";

/**
 * The cached workspace list after one live event; `undefined` while the list has not loaded.
 * A `resync` changes nothing here: the caller refetches the whole list.
 */
export function applyWorkspaceEvent(
  list: Workspace[] | undefined,
  event: WorkspaceEvent,
): Workspace[] | undefined {
  if (!list || event.type === "resync") return list;
  if (event.type === "deleted") return list.filter((ws) => ws.id !== event.workspaceId);
  const index = list.findIndex((ws) => ws.id === event.workspace.id);
  if (index === -1) return [...list, event.workspace];
  return list.map((ws, i) => (i === index ? event.workspace : ws));
}

/** Newest first, so a workspace just created shows at the top. */
export function newestFirst(list: readonly Workspace[]): Workspace[] {
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name));
}
