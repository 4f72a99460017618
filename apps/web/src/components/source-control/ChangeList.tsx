"use client";

import type { GitFileStatus } from "@coder/protocol";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { baseName, parentOf, ROOT } from "../../lib/paths/workspace-path";
import { useTRPC } from "../../lib/trpc/client";
import { type ChangeGroups, changeLetter } from "./change-groups";
import type { DiffTarget } from "./DiffView";
import styles from "./source-control.module.css";

type Group = "staged" | "changes" | "conflicts";

const TITLES: Record<Group, string> = { staged: "Staged", changes: "Changes", conflicts: "Conflicts" };

/** A rename's source goes along, so staging or unstaging it moves both names. */
const pathsOf = (files: readonly GitFileStatus[]) =>
  files.flatMap((file) => (file.origPath ? [file.path, file.origPath] : [file.path]));

/**
 * The changed files grouped Staged / Changes / Conflicts; a click shows a file's diff. Editors
 * stage, unstage and discard (which asks first) per file or per group; viewers only look.
 */
export function ChangeList({
  workspaceId,
  groups,
  canEdit,
  selected,
  onSelect,
}: {
  workspaceId: string;
  groups: ChangeGroups;
  canEdit: boolean;
  selected: DiffTarget | null;
  onSelect(target: DiffTarget): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = {
    meta: SHOWN_INLINE,
    onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() }),
  };
  const stage = useMutation(trpc.git.stage.mutationOptions(options));
  const unstage = useMutation(trpc.git.unstage.mutationOptions(options));
  const discard = useMutation(trpc.git.discard.mutationOptions(options));
  const failed = [stage, unstage, discard].find((m) => m.isError);
  const busy = stage.isPending || unstage.isPending || discard.isPending;

  const act = (group: Group, kind: "primary" | "discard", files: readonly GitFileStatus[]) => {
    const paths = pathsOf(files);
    // Only the latest action's failure is shown.
    for (const mutation of [stage, unstage, discard]) mutation.reset();
    if (kind === "discard") {
      const what =
        files.length === 1 ? `the changes to ${files[0]?.path}` : `the changes to ${files.length} files`;
      if (window.confirm(`Discard ${what}? This cannot be undone.`)) discard.mutate({ workspaceId, paths });
    } else if (group === "staged") unstage.mutate({ workspaceId, paths });
    else stage.mutate({ workspaceId, paths });
  };
  // Staging a conflicted file is how git marks it resolved.
  const primaryLabel = (group: Group) =>
    group === "staged" ? "Unstage" : group === "conflicts" ? "Mark resolved" : "Stage";

  return (
    <div className={styles.changes}>
      {(["conflicts", "staged", "changes"] as const).map((group) => {
        const files = groups[group];
        if (files.length === 0 && group !== "changes") return null;
        return (
          <section key={group} data-testid={`changes-${group}`} aria-label={TITLES[group]}>
            <div className={styles.groupHeader}>
              <span>
                {TITLES[group]} <span className={styles.count}>{files.length}</span>
              </span>
              {canEdit && files.length > 0 && (
                <span className={styles.rowActions}>
                  {group === "changes" && (
                    <button
                      type="button"
                      className={styles.iconButton}
                      title="Discard all changes"
                      disabled={busy}
                      onClick={() => act(group, "discard", files)}
                    >
                      ↶
                    </button>
                  )}
                  <button
                    type="button"
                    className={styles.iconButton}
                    title={`${primaryLabel(group)} all`}
                    data-testid={`${group}-all`}
                    disabled={busy}
                    onClick={() => act(group, "primary", files)}
                  >
                    {group === "staged" ? "−" : "+"}
                  </button>
                </span>
              )}
            </div>
            {files.length === 0 && <p className={styles.muted}>No changes.</p>}
            {files.map((file) => {
              const letter = changeLetter(group === "staged" ? file.index : file.worktree);
              const staged = group === "staged";
              const isSelected = selected?.path === file.path && selected.staged === staged;
              const folder = parentOf(file.path);
              return (
                <div
                  key={file.path}
                  className={styles.fileRow}
                  data-testid="change-file"
                  data-path={file.path}
                  aria-current={isSelected || undefined}
                >
                  <button
                    type="button"
                    className={styles.fileButton}
                    title={`${file.path} (${letter.words})`}
                    onClick={() => onSelect({ path: file.path, staged })}
                  >
                    <span className={styles.fileName}>{baseName(file.path)}</span>
                    {folder !== ROOT && <span className={styles.muted}>{folder}</span>}
                  </button>
                  {canEdit && (
                    <span className={styles.rowActions}>
                      {group === "changes" && (
                        <button
                          type="button"
                          className={styles.iconButton}
                          title="Discard changes"
                          aria-label={`Discard changes to ${file.path}`}
                          data-testid="file-discard"
                          disabled={busy}
                          onClick={() => act(group, "discard", [file])}
                        >
                          ↶
                        </button>
                      )}
                      <button
                        type="button"
                        className={styles.iconButton}
                        title={primaryLabel(group)}
                        aria-label={`${primaryLabel(group)} ${file.path}`}
                        data-testid={staged ? "file-unstage" : "file-stage"}
                        disabled={busy}
                        onClick={() => act(group, "primary", [file])}
                      >
                        {staged ? "−" : "+"}
                      </button>
                    </span>
                  )}
                  <span className={styles.letter} data-letter={letter.letter} title={letter.words}>
                    {letter.letter}
                  </span>
                </div>
              );
            })}
          </section>
        );
      })}
      {failed && (
        <p className={styles.error} role="alert" data-testid="changes-error">
          {errorMessage(failed.error)}
        </p>
      )}
    </div>
  );
}
