"use client";

import type { Workspace } from "@coder/protocol";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import { ImportStatus } from "./ImportStatus";
import { StatusBadge } from "./StatusBadge";
import { applyWorkspaceEvent, type ListEvent, type ListedWorkspace } from "./workspace-events";
import {
  canOpen,
  canStart,
  canStop,
  idleStopNote,
  isInProgress,
  problemOf,
  progressNoteOf,
} from "./workspace-status";
import styles from "./workspaces.module.css";

/**
 * One workspace; its Start, Stop and Delete only when the caller owns it (or administers the
 * service); one shared with them says by whom.
 */
export function WorkspaceRow({ workspace }: { workspace: ListedWorkspace }) {
  const owner = workspace.role === "owner";
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const ref = { workspaceId: workspace.id };

  // Apply each answer at once rather than waiting for its event, so the row never looks stale.
  const applyEvent = (event: ListEvent) =>
    queryClient.setQueryData(trpc.workspace.list.queryKey(), (list) => applyWorkspaceEvent(list, event));
  const upsert = (updated: Workspace) => applyEvent({ type: "upsert", workspace: updated });

  const start = useMutation(trpc.workspace.start.mutationOptions({ onSuccess: upsert }));
  const stop = useMutation(trpc.workspace.stop.mutationOptions({ onSuccess: upsert }));
  const remove = useMutation(
    trpc.workspace.delete.mutationOptions({
      onSuccess: () => applyEvent({ type: "deleted", workspaceId: workspace.id }),
    }),
  );

  const openable = canOpen(workspace);
  const problem = problemOf(workspace);
  const progressNote = progressNoteOf(workspace);
  const idleNote = idleStopNote(workspace);
  const busy = isInProgress(workspace.status) || start.isPending || stop.isPending || remove.isPending;
  const href = `/w/${workspace.id}`;

  function confirmDelete() {
    if (window.confirm(`Delete “${workspace.name}” and all its files? This cannot be undone.`)) {
      remove.mutate(ref);
    }
  }

  return (
    <li
      className={styles.row}
      data-testid="workspace-row"
      data-workspace-id={workspace.id}
      data-status={workspace.status}
      data-role={workspace.role}
    >
      <div className={styles.identity}>
        {openable ? (
          <Link href={href} className={styles.name}>
            {workspace.name}
          </Link>
        ) : (
          <span className={styles.name}>{workspace.name}</span>
        )}
        <span className={styles.meta}>
          {workspace.egress ? "network egress allowed" : "no network"} · created{" "}
          {new Date(workspace.createdAt).toLocaleString()}
        </span>
        {!owner && workspace.owner && (
          <span className={styles.meta} data-testid="workspace-shared-by">
            shared by {workspace.owner.name} · you are {workspace.role}
          </span>
        )}
        {problem && <span className={styles.detail}>{problem}</span>}
        {progressNote && <span className={styles.meta}>{progressNote}</span>}
        {idleNote && <span className={styles.meta}>{idleNote}</span>}
        <ImportStatus workspace={workspace} owner={owner} />
      </div>
      <StatusBadge workspace={workspace} />
      <div className={styles.actions}>
        <button
          type="button"
          className="button primary"
          data-testid="workspace-open"
          disabled={!openable}
          onClick={() => router.push(href)}
        >
          Open
        </button>
        {owner && (
          <OwnerActions
            busy={busy}
            workspace={workspace}
            starting={start.isPending}
            stopping={stop.isPending}
            removing={remove.isPending}
            onStart={() => start.mutate(ref)}
            onStop={() => stop.mutate(ref)}
            onDelete={confirmDelete}
          />
        )}
      </div>
    </li>
  );
}

function OwnerActions({
  workspace,
  busy,
  starting,
  stopping,
  removing,
  onStart,
  onStop,
  onDelete,
}: {
  workspace: Workspace;
  busy: boolean;
  starting: boolean;
  stopping: boolean;
  removing: boolean;
  onStart(): void;
  onStop(): void;
  onDelete(): void;
}) {
  return (
    <>
      <PendingButton
        pending={starting}
        type="button"
        className="button"
        data-testid="workspace-start"
        disabled={busy || !canStart(workspace.status) || workspace.import?.state === "failed"}
        onClick={onStart}
      >
        Start
      </PendingButton>
      <PendingButton
        pending={stopping}
        type="button"
        className="button"
        data-testid="workspace-stop"
        disabled={busy || !canStop(workspace.status)}
        onClick={onStop}
      >
        Stop
      </PendingButton>
      <PendingButton
        pending={removing}
        type="button"
        className="button danger"
        data-testid="workspace-delete"
        disabled={removing || workspace.status === "creating"}
        onClick={onDelete}
      >
        Delete
      </PendingButton>
    </>
  );
}
