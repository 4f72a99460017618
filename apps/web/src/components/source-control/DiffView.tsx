"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type RefObject, useMemo } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import { HunkDiff } from "./HunkDiff";
import styles from "./source-control.module.css";
import { type DiffHunk, parseFileDiff } from "./unified-diff";
import { useRightEdge } from "./use-right-edge";

/** More hunks than this are not drawn (each is an editor); the note says how many were left out. */
const MAX_HUNKS_SHOWN = 100;

export interface DiffTarget {
  path: string;
  /** HEAD against the index (what is staged), or the index against the work tree. */
  staged: boolean;
}

/**
 * A file's diff, hunk by hunk, with Stage (or Unstage) on each hunk: that hunk alone goes to
 * `git.stage {patch}`. Viewers see the same diff without the buttons.
 */
export function DiffView({
  workspaceId,
  target,
  canEdit,
  beside,
  onClose,
}: {
  workspaceId: string;
  target: DiffTarget;
  canEdit: boolean;
  /** The diff floats over the editor, right of this (the panel), which stays usable. */
  beside: RefObject<HTMLElement | null>;
  onClose(): void;
}) {
  const trpc = useTRPC();
  const left = useRightEdge(beside);
  const diff = useQuery(trpc.git.diff.queryOptions({ workspaceId, ...target }));
  const parsed = useMemo(() => (diff.data ? parseFileDiff(diff.data.patch) : null), [diff.data]);
  const hunks = parsed?.hunks ?? [];
  // A cut diff may end inside a hunk: none of it is offered for staging.
  const canStageHunks = canEdit && diff.data?.truncated === false;

  return (
    <section
      className={styles.diff}
      style={{ left: left + 8 }}
      data-testid="diff-view"
      data-path={target.path}
      data-staged={target.staged}
      aria-label={`Diff of ${target.path}`}
      onKeyDown={(e) => e.key === "Escape" && onClose()}
    >
      <header className={styles.diffHeader}>
        <span className={styles.diffPath}>{target.path}</span>
        <span className={styles.muted}>
          {target.staged ? "staged (HEAD ↔ index)" : "changes (index ↔ files)"}
        </span>
        <span className={styles.spacer} />
        <button type="button" className="button" data-testid="diff-close" onClick={onClose}>
          Close
        </button>
      </header>
      <div className={styles.diffBody}>
        {diff.isPending && <p className={styles.muted}>Loading the diff…</p>}
        {diff.isError && (
          <p className={styles.error} role="alert">
            {errorMessage(diff.error)}
          </p>
        )}
        {parsed?.binary && <p className={styles.muted}>A binary file: no lines to compare.</p>}
        {parsed && !parsed.binary && hunks.length === 0 && diff.data?.patch.trim() === "" && (
          <p className={styles.muted} data-testid="diff-empty">
            No {target.staged ? "staged " : ""}changes in this file.
          </p>
        )}
        {/* A conflict's combined diff, or a change of mode only: git's text as it is. */}
        {parsed && !parsed.binary && hunks.length === 0 && diff.data?.patch.trim() !== "" && (
          <pre className={styles.raw} data-testid="diff-raw">
            {diff.data?.patch}
          </pre>
        )}
        {diff.data?.truncated && (
          <p className={styles.muted}>This diff is too long to show whole; stage the file as a whole.</p>
        )}
        {hunks.slice(0, MAX_HUNKS_SHOWN).map((hunk) => (
          <Hunk
            key={`${hunk.header}\n${hunk.patch.length}`}
            workspaceId={workspaceId}
            target={target}
            hunk={hunk}
            canStage={canStageHunks}
          />
        ))}
        {hunks.length > MAX_HUNKS_SHOWN && (
          <p className={styles.muted}>{hunks.length - MAX_HUNKS_SHOWN} more hunks are not shown.</p>
        )}
      </div>
    </section>
  );
}

function Hunk({
  workspaceId,
  target,
  hunk,
  canStage,
}: {
  workspaceId: string;
  target: DiffTarget;
  hunk: DiffHunk;
  canStage: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = {
    meta: SHOWN_INLINE,
    onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() }),
  };
  const stage = useMutation(trpc.git.stage.mutationOptions(options));
  const unstage = useMutation(trpc.git.unstage.mutationOptions(options));
  const action = target.staged ? unstage : stage;
  return (
    <div className={styles.hunk} data-testid="diff-hunk">
      <div className={styles.hunkHeader}>
        <code className={styles.hunkRange}>{hunk.header}</code>
        {canStage && (
          <PendingButton
            pending={action.isPending}
            className="button"
            data-testid={target.staged ? "hunk-unstage" : "hunk-stage"}
            onClick={() => action.mutate({ workspaceId, paths: [target.path], patch: hunk.patch })}
          >
            {target.staged ? "Unstage hunk" : "Stage hunk"}
          </PendingButton>
        )}
      </div>
      {action.isError && (
        <p className={styles.error} role="alert">
          {errorMessage(action.error)}
        </p>
      )}
      <HunkDiff hunk={hunk} path={target.path} />
    </div>
  );
}
