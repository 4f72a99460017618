"use client";

import type { Workspace } from "@coder/protocol";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorCode, errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { LeaveButton } from "../access/LeaveButton";
import { WorkspaceAccessProvider } from "../access/workspace-access";
import { AdminLink } from "../admin/AdminLink";
import { PresenceList } from "../presence/PresenceList";
import { PresenceContext } from "../presence/presence-context";
import { usePresence } from "../presence/use-presence";
import { LogoutButton } from "../session/LogoutButton";
import { ShareButton, type ShareDialogHandle } from "../share/ShareDialog";
import { ImportProgressBar } from "../workspaces/ImportProgressBar";
import { StatusBadge } from "../workspaces/StatusBadge";
import { useWorkspaceEvents } from "../workspaces/use-workspace-events";
import { canStart, isInProgress, problemOf, progressNoteOf } from "../workspaces/workspace-status";
import { IdeLayout } from "./IdeLayout";
import styles from "./ide.module.css";
import { type Resume, useResume } from "./use-resume";

export function WorkspaceIde({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.workspace.get.queryOptions({ workspaceId }));
  const access = useQuery(trpc.workspace.access.queryOptions({ workspaceId })).data;
  useWorkspaceEvents();
  const presence = usePresence(workspaceId);
  const share = useRef<ShareDialogHandle>(null);
  const openShare = useCallback(() => share.current?.open(), []);
  const workspace = query.data;
  const running = workspace?.status === "running";
  const owner = access?.role === "owner";
  // Anyone who opens it wakes it from an idle stop; only the owner starts one they stopped.
  const resume = useResume(workspace);
  // Once shown, the IDE stays up through a stop, so unsaved edits are not lost.
  const [shown, setShown] = useState(false);
  if (running && !shown) setShown(true);

  useEffect(() => {
    if (workspace) document.title = `${workspace.name} · coder`;
  }, [workspace]);

  return (
    <div className={styles.ide}>
      <header className={styles.header}>
        <Link href="/" className={styles.back} title="All workspaces">
          ← Workspaces
        </Link>
        <span className={styles.name}>{workspace?.name ?? "…"}</span>
        {workspace && <StatusBadge workspace={workspace} />}
        {access?.kind === "guest" && (
          <span className={styles.role} data-testid="role-badge" title={`You joined as ${access.name}`}>
            {access.role}
          </span>
        )}
        <span className={styles.spacer} />
        <PresenceList presence={presence} />
        {access && access.role !== "viewer" && (
          // A download, not a page: the browser keeps the IDE open.
          <a
            className="button"
            href={`/api/workspaces/${workspaceId}/archive`}
            download
            data-testid="workspace-download"
          >
            Download
          </a>
        )}
        {access?.kind === "user" && <AdminLink />}
        {access?.role === "owner" && <ShareButton workspaceId={workspaceId} ref={share} />}
        {access?.kind === "guest" ? <LeaveButton workspaceName={workspace?.name} /> : <LogoutButton />}
      </header>
      {query.isError && <Unavailable error={query.error} guest={access?.kind === "guest"} />}
      {workspace && !running && (
        <NotRunning workspace={workspace} withIde={shown} owner={owner} resume={resume} />
      )}
      {running && resume.resumed && <ProcessesEnded onDismiss={resume.dismiss} />}
      {shown && access && (
        <WorkspaceAccessProvider access={access}>
          <PresenceContext.Provider value={presence}>
            <IdeLayout
              workspaceId={workspaceId}
              running={running}
              onActiveFile={presence.showFile}
              onShare={openShare}
            />
          </PresenceContext.Provider>
        </WorkspaceAccessProvider>
      )}
      {query.isPending && (
        <p className={styles.message}>
          <span className="spinner" /> Loading the workspace…
        </p>
      )}
    </div>
  );
}

/** Why the workspace cannot show; a guest has no workspace list to go back to, so they may leave. */
function Unavailable({ error, guest }: { error: unknown; guest: boolean }) {
  const gone = errorCode(error) === "NOT_FOUND";
  return (
    <p className={styles.message} role="alert">
      {gone
        ? "This workspace does not exist, or was deleted."
        : `Could not load the workspace: ${errorMessage(error)}`}{" "}
      {guest ? <LeaveButton /> : <Link href="/">Back to the workspaces</Link>}
    </p>
  );
}

/** Shown instead of the IDE (or above it, once it was open) while the container is not running. */
function NotRunning({
  workspace,
  withIde,
  owner,
  resume,
}: {
  workspace: Workspace;
  withIde: boolean;
  owner: boolean;
  resume: Resume;
}) {
  const trpc = useTRPC();
  const start = useMutation(trpc.workspace.start.mutationOptions());
  const busy = isInProgress(workspace.status) || start.isPending || resume.starting;
  const problem = problemOf(workspace) ?? (resume.error ? errorMessage(resume.error) : undefined);
  const resuming = resume.asked && !resume.error && busy;
  const progressNote = progressNoteOf(workspace);
  const text = resuming
    ? "Starting the workspace again: it was stopped for being idle…"
    : isInProgress(workspace.status)
      ? "Waiting for the workspace…"
      : `The workspace is ${workspace.status}: files and terminals are unavailable.${owner ? "" : " Only its owner can start it."}`;
  return (
    <output className={withIde ? styles.banner : styles.message} data-testid="workspace-not-running">
      {busy && <span className="spinner" />}
      <span>{text}</span>
      {problem && <span className={styles.detail}>{problem}</span>}
      {progressNote && <span className={styles.detail}>{progressNote}</span>}
      {workspace.import?.state === "running" && <ImportProgressBar progress={workspace.import.progress} />}
      {canStart(workspace.status) && owner && workspace.import?.state !== "failed" && (
        <button
          type="button"
          className="button primary"
          disabled={busy}
          onClick={() => start.mutate({ workspaceId: workspace.id })}
        >
          Start
        </button>
      )}
    </output>
  );
}

/** After this page started an idle-stopped workspace again: what ran in it did not survive. */
function ProcessesEnded({ onDismiss }: { onDismiss(): void }) {
  return (
    <output className={styles.banner} data-testid="processes-ended">
      <span>
        The workspace had been stopped for being idle, which ended the processes that ran in it. Terminals
        show their last screen; files are as they were.
      </span>
      <button type="button" className="button" onClick={onDismiss}>
        Dismiss
      </button>
    </output>
  );
}
