import type { TextQuery } from "@coder/protocol";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { baseName, parentOf, ROOT } from "../../lib/paths/workspace-path";
import { MatchText } from "./MatchText";
import styles from "./search.module.css";
import type { ResultRow } from "./search-results";

const ROW_HEIGHT = 22;

/** The results, file rows and match rows, virtualised: a search may bring thousands. */
export function ResultList({
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
