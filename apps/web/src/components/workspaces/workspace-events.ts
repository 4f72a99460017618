import type { Workspace, WorkspaceEvent } from "@coder/protocol";

/** A workspace as the list shows it to the caller: their role there and whose it is. */
export type ListedWorkspace = Workspace & {
  role: "viewer" | "editor" | "owner";
  owner: { id: string; name: string } | null;
};

/** A live event of the list: an upsert from the service's stream carries the caller's role. */
export type ListEvent = WorkspaceEvent | { type: "upsert"; workspace: ListedWorkspace };

const listed = (workspace: Workspace): workspace is ListedWorkspace => "role" in workspace;

/**
 * The cached workspace list after one live event; `undefined` while the list has not loaded.
 * A `resync` changes nothing here: the caller refetches the whole list. An answer of this page's
 * own (a start, a stop) updates a listed workspace and keeps its role; only an event that says the
 * caller's role adds one.
 */
export function applyWorkspaceEvent(
  list: ListedWorkspace[] | undefined,
  event: ListEvent,
): ListedWorkspace[] | undefined {
  // A workspace's ports are the Ports panel's, not the list's.
  if (!list || event.type === "resync" || event.type === "ports") return list;
  if (event.type === "deleted") return list.filter((ws) => ws.id !== event.workspaceId);
  const { workspace } = event;
  const index = list.findIndex((ws) => ws.id === workspace.id);
  if (index === -1) return listed(workspace) ? [...list, workspace] : list;
  return list.map((ws, i) => (i === index ? { ...ws, ...workspace } : ws));
}

/** Newest first, so a workspace just created shows at the top. */
export function newestFirst<W extends Workspace>(list: readonly W[]): W[] {
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name));
}
