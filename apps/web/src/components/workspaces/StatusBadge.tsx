import type { Workspace } from "@coder/protocol";
import styles from "./status-badge.module.css";
import { idleStopNote, isIdleStopped, isInProgress, problemOf, statusLabel } from "./workspace-status";

/** The workspace's status, with a spinner while the service is working on it. */
export function StatusBadge({
  workspace,
}: {
  workspace: Pick<Workspace, "status" | "detail" | "idleStoppedAt">;
}) {
  const { status } = workspace;
  return (
    <span
      className={`${styles.badge} ${styles[status] ?? ""}`}
      title={problemOf(workspace) ?? idleStopNote(workspace)}
      data-testid="workspace-status"
    >
      {isInProgress(status) ? <span className="spinner" /> : <span className={styles.dot} />}
      {statusLabel(status)}
      {isIdleStopped(workspace) && " (idle)"}
    </span>
  );
}
