"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { useCanEdit, useWorkspaceAccess } from "../access/workspace-access";
import { BranchPicker } from "./BranchPicker";
import { ChangeList } from "./ChangeList";
import { CommitBox } from "./CommitBox";
import { CommitLog } from "./CommitLog";
import { ConflictView } from "./ConflictView";
import { CredentialBindings } from "./CredentialBindings";
import { groupChanges } from "./change-groups";
import { type DiffTarget, DiffView } from "./DiffView";
import { RemoteButtons } from "./RemoteButtons";
import styles from "./source-control.module.css";
import { useGitEvents } from "./use-git-events";

/**
 * Source Control: the workspace's repository as everyone on it sees it, kept fresh — branch and
 * upstream, changed files, a file's diff, the last commits. Editors and owners also stage,
 * commit, switch branches and push; viewers see the same without any of those controls.
 */
export function SourceControlPanel({ workspaceId, running }: { workspaceId: string; running: boolean }) {
  const trpc = useTRPC();
  const canEdit = useCanEdit();
  const access = useWorkspaceAccess();
  const status = useQuery(trpc.git.status.queryOptions({ workspaceId }, { enabled: running }));
  const progress = useGitEvents(workspaceId, running);
  const panel = useRef<HTMLElement>(null);
  const [selected, setSelected] = useState<DiffTarget | null>(null);
  const groups = useMemo(() => groupChanges(status.data?.files ?? []), [status.data]);

  if (!running) return <p className={styles.note}>Source control shows while the workspace runs.</p>;
  if (status.isPending) return <p className={styles.note}>Reading the repository…</p>;
  if (status.isError) {
    return (
      <p className={`${styles.note} ${styles.error}`} role="alert">
        {errorMessage(status.error)}
      </p>
    );
  }
  const repo = status.data;
  if (!repo.repository) {
    return (
      <p className={styles.note} data-testid="git-no-repository">
        This workspace is not a git repository.{" "}
        {canEdit && "Run git init (or git clone) in a terminal to start one."}
      </p>
    );
  }

  return (
    <section
      ref={panel}
      className={styles.panel}
      data-testid="source-control-panel"
      aria-label="Source control"
    >
      <div className={styles.branch} data-testid="git-branch">
        <span className={styles.branchName}>
          {repo.branch ?? `detached at ${repo.head?.slice(0, 7) ?? "?"}`}
        </span>
        {repo.upstream ? (
          <span
            className={styles.muted}
            data-testid="git-upstream"
            title="Commits ahead and behind the upstream"
          >
            → {repo.upstream} ↑{repo.ahead} ↓{repo.behind}
          </span>
        ) : (
          <span className={styles.muted}>no upstream</span>
        )}
      </div>
      {canEdit && (
        <>
          <BranchPicker workspaceId={workspaceId} current={repo.branch} />
          <RemoteButtons workspaceId={workspaceId} hasUpstream={repo.upstream !== null} progress={progress} />
          {access.kind === "user" && access.role === "owner" && (
            <CredentialBindings workspaceId={workspaceId} />
          )}
          <CommitBox workspaceId={workspaceId} stagedCount={groups.staged.length} />
        </>
      )}
      <div className={styles.scroll}>
        <ChangeList
          workspaceId={workspaceId}
          groups={groups}
          canEdit={canEdit}
          selected={selected}
          onSelect={setSelected}
        />
        {repo.truncated && <p className={styles.muted}>Only the first changed files are listed.</p>}
        <CommitLog workspaceId={workspaceId} />
      </div>
      {selected && groups.conflicts.some((f) => f.path === selected.path) ? (
        <ConflictView
          key={`conflict:${selected.path}`}
          workspaceId={workspaceId}
          path={selected.path}
          canEdit={canEdit}
          beside={panel}
          onClose={() => setSelected(null)}
        />
      ) : (
        selected && (
          <DiffView
            key={`${selected.path}:${selected.staged}`}
            workspaceId={workspaceId}
            target={selected}
            canEdit={canEdit}
            beside={panel}
            onClose={() => setSelected(null)}
          />
        )
      )}
    </section>
  );
}
