import type { Workspace, WorkspaceStatus } from "@coder/protocol";

const LABELS: Record<WorkspaceStatus, string> = {
  creating: "Creating…",
  starting: "Starting…",
  running: "Running",
  stopping: "Stopping…",
  stopped: "Stopped",
  missing: "Missing",
  error: "Error",
};

export const statusLabel = (status: WorkspaceStatus): string => LABELS[status];

/** A status the service is still working on: show progress and hold back other actions. */
export function isInProgress(status: WorkspaceStatus): boolean {
  return status === "creating" || status === "starting" || status === "stopping";
}

export const canStart = (status: WorkspaceStatus): boolean => status === "stopped" || status === "error";
export const canStop = (status: WorkspaceStatus): boolean => status === "running";

/** What the service is waiting for while it creates or starts the workspace (a slow daemon, say). */
export function progressNoteOf(workspace: Pick<Workspace, "status" | "detail">): string | undefined {
  return isInProgress(workspace.status) ? workspace.detail : undefined;
}

/**
 * The service's reason, when the status is one that has a reason (it may linger on others): a
 * failure, a missing container, or what stopped a workspace outside anyone's asking (its machine
 * drained or lost).
 */
export function problemOf(workspace: Pick<Workspace, "status" | "detail">): string | undefined {
  const { status } = workspace;
  return status === "error" || status === "missing" || status === "stopped" ? workspace.detail : undefined;
}

/** Whether the service stopped it for being idle (opening it starts it again). */
export const isIdleStopped = (workspace: Pick<Workspace, "status" | "idleStoppedAt">): boolean =>
  workspace.status === "stopped" && workspace.idleStoppedAt !== undefined;

/** Running, or stopped for being idle (opening it starts it again). */
export const canOpen = (workspace: Pick<Workspace, "status" | "idleStoppedAt">): boolean =>
  workspace.status === "running" || isIdleStopped(workspace);

/** Why a stopped workspace stopped, when the service stopped it for being idle. */
export function idleStopNote(workspace: Pick<Workspace, "status" | "idleStoppedAt">): string | undefined {
  if (!isIdleStopped(workspace) || !workspace.idleStoppedAt) return undefined;
  return `stopped for being idle since ${new Date(workspace.idleStoppedAt).toLocaleString()}; opening it starts it again`;
}
