"use client";

import { type LineMatch, MAX_SEARCH_MATCHES, type TextQuery, textQuery } from "@coder/protocol";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type ReactNode,
  type Ref,
  useDeferredValue,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from "react";
import { baseName, parentOf, ROOT } from "../../lib/paths/workspace-path";
import { useCanEdit } from "../access/workspace-access";
import { PendingButton } from "../controls/PendingButton";
import { previewReplacement } from "./replace-preview";
import styles from "./search.module.css";
import { type ResultRow, resultRows, withoutFile } from "./search-results";
import { useFileSearch } from "./use-file-search";
import { useReplace } from "./use-replace";

export interface SearchPanelHandle {
  /** Puts the cursor in the search field (or the replace field), with what was typed selected. */
  focus(replace: boolean): void;
}

/** Typing pauses this long before the search runs. */
const SEARCH_DELAY_MS = 250;
const ROW_HEIGHT = 22;

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
          <Toggle
            label="Match case"
            text="Aa"
            testId="search-case"
            on={form.caseSensitive}
            set={(v) => set("caseSensitive", v)}
          />
          <Toggle
            label="Whole word"
            text="ab"
            testId="search-word"
            on={form.wholeWord}
            set={(v) => set("wholeWord", v)}
          />
          <Toggle
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
      <Summary results={results} />
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

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function Toggle({
  label,
  text,
  testId,
  on,
  set,
}: {
  label: string;
  text: string;
  testId: string;
  on: boolean;
  set(on: boolean): void;
}) {
  return (
    <button
      type="button"
      className={styles.toggle}
      title={label}
      aria-label={label}
      aria-pressed={on}
      data-testid={testId}
      onClick={() => set(!on)}
    >
      {text}
    </button>
  );
}

function Summary({ results }: { results: ReturnType<typeof useFileSearch>["results"] }) {
  if (results.status === "idle") return null;
  const files = results.files.length;
  const counts = `${results.matchCount.toLocaleString("en")} ${results.matchCount === 1 ? "result" : "results"} in ${files} ${files === 1 ? "file" : "files"}`;
  return (
    <p
      className={styles.summary}
      data-testid="search-summary"
      data-status={results.status}
      role={results.status === "failed" ? "alert" : undefined}
    >
      {results.status === "searching" && <span className="spinner" />}
      {results.status === "failed"
        ? results.error
        : results.status === "searching"
          ? `Searching… ${counts}`
          : counts}
      {results.truncated && (
        <span className={styles.truncated}>
          {" "}
          Results truncated: showing the first {MAX_SEARCH_MATCHES.toLocaleString("en")} matches; narrow the
          search.
        </span>
      )}
    </p>
  );
}

function ResultList({
  rows,
  query,
  replacement,
  onOpen,
  onToggle,
  onDismiss,
}: {
  rows: readonly ResultRow[];
  query: TextQuery | null;
  replacement: string | null;
  onOpen(path: string, line: number, column: number): void;
  onToggle(path: string): void;
  onDismiss?: (path: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  return (
    <div ref={scroller} className={styles.results} data-testid="search-results">
      <div className={styles.rowsSpace} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const position = { transform: `translateY(${item.start}px)` };
          if (row.kind === "file") {
            const folder = parentOf(row.path);
            return (
              <div
                key={`f:${row.path}`}
                className={`${styles.row} ${styles.fileRow}`}
                style={position}
                data-testid="search-result-file"
                data-path={row.path}
              >
                <button
                  type="button"
                  className={styles.fileButton}
                  aria-expanded={!row.collapsed}
                  onClick={() => onToggle(row.path)}
                >
                  <span className={styles.chevron}>{row.collapsed ? "▸" : "▾"}</span>
                  <span className={styles.fileName}>{baseName(row.path)}</span>
                  {folder !== ROOT && <span className={styles.folder}>{folder}</span>}
                  <span className={styles.count}>{row.count}</span>
                </button>
                {onDismiss && (
                  <button
                    type="button"
                    className={styles.dismiss}
                    title="Leave this file out of the replace"
                    aria-label={`Leave ${row.path} out`}
                    onClick={() => onDismiss(row.path)}
                  >
                    ×
                  </button>
                )}
              </div>
            );
          }
          return (
            <button
              type="button"
              key={`m:${row.path}:${row.match.line}`}
              className={`${styles.row} ${styles.matchRow}`}
              style={position}
              data-testid="search-result"
              data-path={row.path}
              data-line={row.match.line}
              title={`${row.path}:${row.match.line}`}
              onClick={() => onOpen(row.path, row.match.line, row.match.column)}
            >
              <span className={styles.lineNumber}>{row.match.line}</span>
              <MatchText match={row.match} query={query} replacement={replacement} />
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** The matching line, indentation dropped, each match marked (and with its replacement, if any). */
function MatchText({
  match,
  query,
  replacement,
}: {
  match: LineMatch;
  query: TextQuery | null;
  replacement: string | null;
}) {
  const indent = match.text.length - match.text.trimStart().length;
  const parts: ReactNode[] = [];
  let at = indent;
  for (const range of match.ranges) {
    if (range.start < at) continue;
    parts.push(match.text.slice(at, range.start));
    const matched = match.text.slice(range.start, range.end);
    if (replacement !== null && query) {
      parts.push(
        <del key={`d${range.start}`} className={styles.removed}>
          {matched}
        </del>,
        <ins key={`i${range.start}`} className={styles.inserted}>
          {previewReplacement(query, matched, replacement)}
        </ins>,
      );
    } else {
      parts.push(
        <mark key={range.start} className={styles.hit}>
          {matched}
        </mark>,
      );
    }
    at = range.end;
  }
  parts.push(match.text.slice(at));
  return <span className={styles.lineText}>{parts}</span>;
}
