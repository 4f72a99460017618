import type { TurnSummary } from "@coder/protocol";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useCanEdit } from "../access/workspace-access";
import styles from "./chat.module.css";
import { DiffView } from "./DiffView";
import type { Verification } from "./session-state";
import { TurnCommitActions } from "./TurnCommitActions";

/** Under a finished turn that changed files: its diff, and revert / undo revert. */
export function TurnActions({
  workspaceId,
  turn,
  verification,
}: {
  workspaceId: string;
  turn: TurnSummary;
  verification?: Verification;
}) {
  const trpc = useTRPC();
  const canRevert = useCanEdit();
  const ref = { sessionId: turn.sessionId, turnId: turn.id };
  const [showDiff, setShowDiff] = useState(false);
  const diff = useQuery({ ...trpc.session.turnDiff.queryOptions(ref), enabled: showDiff });
  // The diff shown follows the revert state: fetch it again after either.
  const onSettled = () => {
    if (showDiff) void diff.refetch();
  };
  const revert = useMutation(trpc.session.revertTurn.mutationOptions({ meta: SHOWN_INLINE, onSettled }));
  const undo = useMutation(trpc.session.undoRevert.mutationOptions({ meta: SHOWN_INLINE, onSettled }));
  const busy = revert.isPending || undo.isPending;
  const failure = revert.error ?? undo.error ?? diff.error;

  return (
    <div className={styles.turnActions}>
      {verification?.type === "verify.finished" && (
        <div className={verification.passed ? styles.verifyPassed : styles.verifyFailed}>
          Check <code>{verification.command}</code> {verification.passed ? "passed" : "failed"} (attempt{" "}
          {verification.attempt})
        </div>
      )}
      {verification?.type === "verify.skipped" && (
        <div className={styles.verifyFailed} data-testid="verify-skipped">
          Check <code>{verification.command}</code> not run: {verification.reason}
        </div>
      )}
      {turn.changedFiles && (
        <div className={styles.promptActions}>
          <button type="button" className="button" onClick={() => setShowDiff(!showDiff)}>
            {showDiff ? "Hide changes" : "Changes"}
          </button>
          {!canRevert ? null : turn.reverted ? (
            <button
              type="button"
              className="button"
              data-testid="turn-undo-revert"
              disabled={busy}
              onClick={() => undo.mutate(ref)}
            >
              {undo.isPending && <span className="spinner" />} Undo revert
            </button>
          ) : (
            <button
              type="button"
              className="button danger"
              data-testid="turn-revert"
              disabled={busy}
              onClick={() => revert.mutate(ref)}
            >
              {revert.isPending && <span className="spinner" />} Revert turn
            </button>
          )}
          {turn.reverted && <span className={styles.muted}>Reverted</span>}
        </div>
      )}
      {turn.changedFiles && canRevert && !turn.reverted && (
        <TurnCommitActions workspaceId={workspaceId} turn={turn} />
      )}
      {showDiff && diff.isPending && (
        <div className={styles.muted}>
          <span className="spinner" /> Loading the changes…
        </div>
      )}
      {showDiff && diff.data && <TurnDiffView files={diff.data.files} patch={diff.data.patch} />}
      {failure && (
        <div className={styles.toolError} role="alert">
          {errorMessage(failure)}
        </div>
      )}
    </div>
  );
}

function TurnDiffView({ files, patch }: { files: { path: string; status: string }[]; patch: string }) {
  if (files.length === 0) return <div className={styles.muted}>No file differs now.</div>;
  return (
    <div data-testid="turn-diff">
      <ul className={styles.fileList}>
        {files.map((f) => (
          <li key={f.path}>
            {f.status} {f.path}
          </li>
        ))}
      </ul>
      {patch && <DiffView diff={patch} testId="turn-diff-patch" />}
    </div>
  );
}
