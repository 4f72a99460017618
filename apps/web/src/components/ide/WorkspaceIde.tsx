"use client";

import type { Workspace } from "@coder/protocol";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { errorCode, errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { LogoutButton } from "../session/LogoutButton";
import { ImportProgressBar } from "../workspaces/ImportProgressBar";
import { StatusBadge } from "../workspaces/StatusBadge";
import { useWorkspaceEvents } from "../workspaces/use-workspace-events";
import { canStart, isInProgress, problemOf } from "../workspaces/workspace-status";
import { IdeLayout } from "./IdeLayout";
import styles from "./ide.module.css";

export function WorkspaceIde({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.workspace.get.queryOptions({ workspaceId }));
  useWorkspaceEvents();
  const workspace = query.data;
  const running = workspace?.status === "running";
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
        {/* A download, not a page: the service refuses viewers (403) and the browser keeps the page. */}
        <a
          className="button"
          href={`/api/workspaces/${workspaceId}/archive`}
          download
          data-testid="workspace-download"
        >
          Download
        </a>
        <LogoutButton />
      </header>
      {query.isError && <Unavailable error={query.error} />}
      {workspace && !running && <NotRunning workspace={workspace} withIde={shown} />}
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
function NotRunning({ workspace, withIde }: { workspace: Workspace; withIde: boolean }) {
  const trpc = useTRPC();
  const start = useMutation(trpc.workspace.start.mutationOptions());
  const busy = isInProgress(workspace.status) || start.isPending;
  const problem = problemOf(workspace);
  const text = isInProgress(workspace.status)
    ? "Waiting for the workspace…"
    : `The workspace is ${workspace.status}: files and terminals are unavailable.`;
  return (
    <output className={withIde ? styles.banner : styles.message}>
      {busy && <span className="spinner" />}
      <span>{text}</span>
      {problem && <span className={styles.detail}>{problem}</span>}
      {workspace.import?.state === "running" && <ImportProgressBar progress={workspace.import.progress} />}
      {canStart(workspace.status) && workspace.import?.state !== "failed" && (
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
