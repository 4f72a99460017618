"use client";

import type { Workspace } from "@coder/protocol";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { errorCode, errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { LogoutButton } from "../session/LogoutButton";
import { StatusBadge } from "../workspaces/StatusBadge";
import { useWorkspaceEvents } from "../workspaces/use-workspace-events";
import { canStart, isInProgress, problemOf } from "../workspaces/workspace-status";
import { IdeLayout } from "./IdeLayout";
import styles from "./ide.module.css";
import { type Resume, useResume } from "./use-resume";

export function WorkspaceIde({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.workspace.get.queryOptions({ workspaceId }));
  useWorkspaceEvents();
  const workspace = query.data;
  const running = workspace?.status === "running";
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
        <span className={styles.spacer} />
        <LogoutButton />
      </header>
      {query.isError && <Unavailable error={query.error} />}
      {workspace && !running && <NotRunning workspace={workspace} withIde={shown} resume={resume} />}
      {running && resume.resumed && <ProcessesEnded onDismiss={resume.dismiss} />}
      {shown && <IdeLayout workspaceId={workspaceId} running={running} />}
      {query.isPending && (
        <p className={styles.message}>
          <span className="spinner" /> Loading the workspace…
        </p>
      )}
    </div>
  );
}

function Unavailable({ error }: { error: unknown }) {
  const gone = errorCode(error) === "NOT_FOUND";
  return (
    <p className={styles.message} role="alert">
      {gone
        ? "This workspace does not exist, or was deleted."
        : `Could not load the workspace: ${errorMessage(error)}`}{" "}
      <Link href="/">Back to the workspaces</Link>
    </p>
  );
}

/** Shown instead of the IDE (or above it, once it was open) while the container is not running. */
function NotRunning({
  workspace,
  withIde,
  resume,
}: {
  workspace: Workspace;
  withIde: boolean;
  resume: Resume;
}) {
  const trpc = useTRPC();
  const start = useMutation(trpc.workspace.start.mutationOptions());
  const busy = isInProgress(workspace.status) || start.isPending || resume.starting;
  const problem = problemOf(workspace) ?? (resume.error ? errorMessage(resume.error) : undefined);
  const resuming = resume.asked && !resume.error && busy;
  const text = resuming
    ? "Starting the workspace again: it was stopped for being idle…"
    : isInProgress(workspace.status)
      ? "Waiting for the workspace…"
      : `The workspace is ${workspace.status}: files and terminals are unavailable.`;
  return (
    <output className={withIde ? styles.banner : styles.message} data-testid="workspace-not-running">
      {busy && <span className="spinner" />}
      <span>{text}</span>
      {problem && <span className={styles.detail}>{problem}</span>}
      {canStart(workspace.status) && (
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
