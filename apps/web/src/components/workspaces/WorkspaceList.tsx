"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { AdminLink } from "../admin/AdminLink";
import { LogoutButton } from "../session/LogoutButton";
import { CreateWorkspaceForm } from "./CreateWorkspaceForm";
import { useWorkspaceEvents } from "./use-workspace-events";
import { WorkspaceRow } from "./WorkspaceRow";
import { newestFirst } from "./workspace-events";
import styles from "./workspaces.module.css";

export function WorkspaceList() {
  const trpc = useTRPC();
  const list = useQuery(trpc.workspace.list.queryOptions());
  // Every user makes workspaces of their own; a guest is not offered that. Each row offers what
  // the caller's role on that workspace allows.
  const user = useQuery(trpc.workspace.whoami.queryOptions()).data?.kind === "user";
  useWorkspaceEvents();

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>coder</h1>
        <span className={styles.subtitle}>Workspaces</span>
        <span className={styles.spacer} />
        {user && <Link href="/audit">Audit</Link>}
        {user && (
          <Link href="/settings/git" data-testid="git-tokens-link">
            Git tokens
          </Link>
        )}
        <AdminLink />
        <LogoutButton />
      </header>
      {user && <CreateWorkspaceForm />}
      {list.isPending && (
        <p className={styles.placeholder}>
          <span className="spinner" /> Loading workspaces…
        </p>
      )}
      {list.isError && (
        <p className={styles.loadError} role="alert">
          Could not load the workspaces: {errorMessage(list.error)}{" "}
          <button type="button" className="button" onClick={() => list.refetch()}>
            Retry
          </button>
        </p>
      )}
      {list.data?.length === 0 && (
        <p className={styles.placeholder}>
          {user
            ? "No workspaces yet. Create one above to get a sandboxed container."
            : "No workspace is shared with you any more."}
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <ul className={styles.list}>
          {newestFirst(list.data).map((workspace) => (
            <WorkspaceRow key={workspace.id} workspace={workspace} />
          ))}
        </ul>
      )}
    </main>
  );
}
