"use client";

import { unifiedMergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { EditorView, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "react";
import { noEditing } from "../editor/editor-extensions";
import { loadLanguageFor } from "../editor/languages";
import type { DiffHunk } from "./unified-diff";

const look = EditorView.theme({
  "&": { fontSize: "12px" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.45" },
});

/**
 * One hunk as CodeMirror's unified merge view shows it: the lines as they are, the removed ones
 * above them, numbered as in the file. Read-only: the hunk is staged from its header.
 */
export function HunkDiff({ hunk, path }: { hunk: DiffHunk; path: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let view: EditorView | undefined;
    let cancelled = false;
    void loadLanguageFor(path)
      .catch(() => [])
      .then((language) => {
        if (cancelled || !host.current) return;
        view = new EditorView({
          parent: host.current,
          state: EditorState.create({
            doc: hunk.newText,
            extensions: [
              lineNumbers({ formatNumber: (n) => String(n + hunk.newStart - 1) }),
              oneDark,
              look,
              language,
              noEditing,
              unifiedMergeView({ original: hunk.oldText, mergeControls: false, gutter: true }),
            ],
          }),
        });
      });
    return () => {
      cancelled = true;
      view?.destroy();
    };
  }, [hunk, path]);
  return <div ref={host} data-testid="diff-hunk-text" />;
}
