"use client";

import { MergeView } from "@codemirror/merge";
import { EditorState, type Extension } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { EditorView, lineNumbers } from "@codemirror/view";
import type { GitConflictView } from "@coder/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import { noEditing } from "../editor/editor-extensions";
import { loadLanguageFor } from "../editor/languages";
import { AcceptSides } from "./AcceptSides";
import { conflictBlocks } from "./conflict-blocks";
import styles from "./source-control.module.css";
import { useRightEdge } from "./use-right-edge";

const look = EditorView.theme({
  "&": { fontSize: "12px", maxHeight: "100%" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.45" },
});

/**
 * A conflicted file three ways: ours and theirs side by side (CodeMirror's merge view marks where
 * they differ), and below them the result, the file as the merge left it, with its conflict
 * blocks. "Accept ours" / "Accept theirs" resolve one block or the whole file; "Mark resolved"
 * writes the result (only over the version shown) and stages it. Viewers see it all read-only.
 */
export function ConflictView({
  workspaceId,
  path,
  canEdit,
  beside,
  onClose,
}: {
  workspaceId: string;
  path: string;
  canEdit: boolean;
  beside: RefObject<HTMLElement | null>;
  onClose(): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const left = useRightEdge(beside);
  const conflict = useQuery(
    trpc.git.conflict.queryOptions({ workspaceId, path }, { refetchOnWindowFocus: false }),
  );
  const [language, setLanguage] = useState<Extension | null>(null);
  useEffect(() => {
    let cancelled = false;
    void loadLanguageFor(path)
      .catch(() => [])
      .then((loaded) => !cancelled && setLanguage(loaded));
    return () => {
      cancelled = true;
    };
  }, [path]);

  const sidesHost = useRef<HTMLDivElement>(null);
  const resultHost = useRef<HTMLDivElement>(null);
  const resultView = useRef<EditorView | null>(null);
  const [result, setResult] = useState<string | null>(null);
  // The first answer stays shown: a refetch (any git change invalidates git.*) must not rebuild
  // the result editor over what the person is resolving.
  const [data, setData] = useState<GitConflictView | null>(null);
  useEffect(() => {
    if (conflict.data) setData((shown) => shown ?? conflict.data);
  }, [conflict.data]);
  const editable = canEdit && data?.truncated === false && data.result !== null;

  useEffect(() => {
    if (!data || language === null || !sidesHost.current) return;
    const side = (doc: string | null): { doc: string; extensions: Extension } => ({
      doc: doc ?? "",
      extensions: [lineNumbers(), oneDark, look, language, noEditing],
    });
    const view = new MergeView({
      a: side(data.ours),
      b: side(data.theirs),
      parent: sidesHost.current,
      gutter: true,
    });
    return () => view.destroy();
  }, [data, language]);

  useEffect(() => {
    if (!data || language === null || !resultHost.current) return;
    setResult(data.result);
    const view = new EditorView({
      parent: resultHost.current,
      state: EditorState.create({
        doc: data.result ?? "",
        extensions: [
          lineNumbers(),
          oneDark,
          look,
          language,
          editable ? [] : noEditing,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) setResult(update.state.doc.toString());
          }),
        ],
      }),
    });
    resultView.current = view;
    return () => {
      view.destroy();
      resultView.current = null;
    };
  }, [data, language, editable]);

  const blocks = useMemo(() => conflictBlocks(result ?? ""), [result]);
  const replace = (from: number, to: number, insert: string) =>
    resultView.current?.dispatch({ changes: { from, to, insert } });

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.git.pathKey() });
  const write = useMutation(trpc.files.write.mutationOptions({ meta: SHOWN_INLINE }));
  const stage = useMutation(trpc.git.stage.mutationOptions({ meta: SHOWN_INLINE, onSettled: refresh }));
  const resolve = async () => {
    if (result !== null && result !== data?.result) {
      await write.mutateAsync({
        workspaceId,
        path,
        content: result,
        ...(data?.version ? { expectedVersion: data.version } : {}),
      });
    }
    await stage.mutateAsync({ workspaceId, paths: [path] });
    onClose();
  };
  const resolving = write.isPending || stage.isPending;
  const failure = conflict.error ?? write.error ?? stage.error;

  return (
    <section
      className={styles.diff}
      style={{ left: left + 8 }}
      data-testid="conflict-view"
      data-path={path}
      aria-label={`Conflict in ${path}`}
      onKeyDown={(e) => e.key === "Escape" && onClose()}
    >
      <header className={styles.diffHeader}>
        <span className={styles.diffPath}>{path}</span>
        <span className={styles.muted}>conflict: ours ↔ theirs, and the result</span>
        <span className={styles.spacer} />
        {editable && (
          <>
            <AcceptSides
              testIdPrefix="conflict-file"
              disabled={resolving}
              onAccept={(side) => replace(0, result?.length ?? 0, data?.[side] ?? "")}
            />
            <PendingButton
              pending={resolving}
              className="button primary"
              data-testid="conflict-resolve"
              onClick={() => void resolve().catch(() => undefined)}
            >
              Mark resolved
            </PendingButton>
          </>
        )}
        <button type="button" className="button" data-testid="conflict-close" onClick={onClose}>
          Close
        </button>
      </header>
      <div className={styles.diffBody}>
        {conflict.isPending && <p className={styles.muted}>Loading the conflict…</p>}
        {failure && (
          <p className={styles.error} role="alert">
            {errorMessage(failure)}
          </p>
        )}
        {data?.truncated && (
          <p className={styles.muted}>This file is too long to resolve here; resolve it in the editor.</p>
        )}
        <div className={styles.conflictLabels}>
          <span>Ours (HEAD){data?.ours === null && ": deleted"}</span>
          <span>Theirs (incoming){data?.theirs === null && ": deleted"}</span>
        </div>
        <div ref={sidesHost} className={styles.conflictSides} data-testid="conflict-sides" />
        <div className={styles.conflictLabels}>
          <span>
            Result{data?.result === null && ": not in the work tree"} ·{" "}
            <span data-testid="conflict-count">
              {blocks.length} conflict{blocks.length === 1 ? "" : "s"} left
            </span>
          </span>
        </div>
        {editable &&
          blocks.map((block, i) => (
            <div key={`${block.from}:${block.to}`} className={styles.line} data-testid="conflict-block">
              <span className={styles.muted}>Conflict {i + 1}</span>
              <AcceptSides
                testIdPrefix="conflict-block"
                disabled={resolving}
                onAccept={(side) => replace(block.from, block.to, block[side])}
              />
            </div>
          ))}
        <div ref={resultHost} className={styles.conflictResult} data-testid="conflict-result" />
      </div>
    </section>
  );
}
