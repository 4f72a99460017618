"use client";

import { textQuery } from "@coder/protocol";
import { type Ref, useDeferredValue, useImperativeHandle, useMemo, useRef, useState } from "react";
import { useCanEdit } from "../access/workspace-access";
import { PendingButton } from "../controls/PendingButton";
import { ResultList } from "./ResultList";
import { SearchSummary } from "./SearchSummary";
import { SearchToggle } from "./SearchToggle";
import styles from "./search.module.css";
import { resultRows, withoutFile } from "./search-results";
import { useDebounced } from "./use-debounced";
import { useFileSearch } from "./use-file-search";
import { useReplace } from "./use-replace";

export interface SearchPanelHandle {
  /** Puts the cursor in the search field (or the replace field), with what was typed selected. */
  focus(replace: boolean): void;
}

/** Typing pauses this long before the search runs. */
const SEARCH_DELAY_MS = 250;

/**
 * Find in files (Ctrl-Shift-F): ripgrep in the workspace, results streaming in grouped by file;
 * a click opens the file at the match. With the replace field open, each match shows what it
 * becomes, files can be dismissed, and "Replace all" changes the rest (undoable).
 */
export function SearchPanel({
  workspaceId,
  onOpen,
  unsavedPaths,
  ref,
}: {
  workspaceId: string;
  onOpen(path: string, line: number, column: number): void;
  /** Open files with unsaved edits: a replace leaves them alone and says so. */
  unsavedPaths: () => readonly string[];
  ref?: Ref<SearchPanelHandle>;
}) {
  const [form, setForm] = useState({
    pattern: "",
    regex: false,
    caseSensitive: false,
    wholeWord: false,
    include: "",
    exclude: "",
  });
  // A viewer searches but cannot replace (the service refuses it anyway).
  const canReplace = useCanEdit();
  const [shownReplace, setReplaceShown] = useState(false);
  const replaceShown = canReplace && shownReplace;
  const [replacement, setReplacement] = useState("");
  const [rerun, setRerun] = useState(0);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const searchInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);

  useImperativeHandle(ref, () => ({
    focus(replace: boolean) {
      if (replace) setReplaceShown(true);
      // After the replace field is drawn.
      requestAnimationFrame(() => {
        const input = replace ? replaceInput.current : searchInput.current;
        input?.focus();
        input?.select();
      });
    },
  }));

  const query = useDebounced(
    useMemo(() => {
      const parsed = textQuery.safeParse(form);
      return parsed.success ? parsed.data : null;
    }, [form]),
    SEARCH_DELAY_MS,
  );
  const { results, setResults } = useFileSearch(workspaceId, query, rerun);
  const shown = useDeferredValue(results);
  const rows = useMemo(() => resultRows(shown, collapsed), [shown, collapsed]);
  const replace = useReplace(workspaceId);

  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  async function replaceAll() {
    if (!query) return;
    const unsaved = new Set(unsavedPaths());
    const paths = results.files.map((f) => f.path).filter((path) => !unsaved.has(path));
    if (paths.length === 0) return;
    await replace.replaceAll(query, replacement, paths);
    setRerun((n) => n + 1);
  }
  const unsavedHits = results.files.filter((f) => unsavedPaths().includes(f.path)).length;

  return (
    <section className={styles.panel} data-testid="search-panel" aria-label="Find in files">
      <div className={styles.form}>
        <div className={styles.line}>
          {canReplace && (
            <button
              type="button"
              className={styles.expander}
              aria-label={replaceShown ? "Hide replace" : "Show replace"}
              aria-expanded={replaceShown}
              onClick={() => setReplaceShown((v) => !v)}
            >
              {replaceShown ? "▾" : "▸"}
            </button>
          )}
          <input
            ref={searchInput}
            type="text"
            className={styles.field}
            data-testid="search-input"
            placeholder="Search"
            aria-label="Search"
            value={form.pattern}
            spellCheck={false}
            onChange={(e) => set("pattern", e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && setRerun((n) => n + 1)}
          />
          <SearchToggle
            label="Match case"
            text="Aa"
            testId="search-case"
            on={form.caseSensitive}
            set={(v) => set("caseSensitive", v)}
          />
          <SearchToggle
            label="Whole word"
            text="ab"
            testId="search-word"
            on={form.wholeWord}
            set={(v) => set("wholeWord", v)}
          />
          <SearchToggle
            label="Regular expression"
            text=".*"
            testId="search-regex"
            on={form.regex}
            set={(v) => set("regex", v)}
          />
        </div>
        {replaceShown && (
          <div className={styles.line}>
            <span className={styles.expander} />
            <input
              ref={replaceInput}
              type="text"
              className={styles.field}
              data-testid="search-replace-input"
              placeholder={form.regex ? "Replace ($1 for a group)" : "Replace"}
              aria-label="Replace"
              value={replacement}
              spellCheck={false}
              onChange={(e) => setReplacement(e.target.value)}
            />
            <PendingButton
              pending={replace.busy}
              className={`button ${styles.replaceAll}`}
              data-testid="search-replace-all"
              disabled={results.status !== "done" || results.files.length === 0}
              title="Replace every match shown"
              onClick={() => void replaceAll()}
            >
              Replace all
            </PendingButton>
          </div>
        )}
        <input
          type="text"
          className={styles.field}
          data-testid="search-include"
          placeholder="Files to include (src, *.ts)"
          aria-label="Files to include"
          value={form.include}
          onChange={(e) => set("include", e.target.value)}
        />
        <input
          type="text"
          className={styles.field}
          data-testid="search-exclude"
          placeholder="Files to exclude (node_modules, *.min.js)"
          aria-label="Files to exclude"
          value={form.exclude}
          onChange={(e) => set("exclude", e.target.value)}
        />
      </div>
      <SearchSummary results={results} />
      {replaceShown && unsavedHits > 0 && (
        <p className={styles.note}>
          Files with unsaved changes are left alone by Replace all: save them first.
        </p>
      )}
      {replace.outcome && (
        <output className={styles.outcome} data-testid="replace-outcome">
          <span>{replace.outcome.message}</span>
          {replace.outcome.undo.length > 0 && (
            <button
              type="button"
              className="button"
              data-testid="search-undo-replace"
              disabled={replace.busy}
              onClick={() => void replace.undo().then(() => setRerun((n) => n + 1))}
            >
              Undo replace
            </button>
          )}
          <button type="button" className={styles.dismiss} aria-label="Dismiss" onClick={replace.dismiss}>
            ×
          </button>
        </output>
      )}
      <ResultList
        rows={rows}
        query={query}
        replacement={replaceShown ? replacement : null}
        onOpen={onOpen}
        onToggle={(path) =>
          setCollapsed((current) => {
            const next = new Set(current);
            if (!next.delete(path)) next.add(path);
            return next;
          })
        }
        onDismiss={replaceShown ? (path) => setResults((r) => withoutFile(r, path)) : undefined}
      />
    </section>
  );
}
