"use client";

import { useState, useSyncExternalStore } from "react";
import { baseName } from "../../../lib/paths/workspace-path";
import type { EditorController } from "../editor-controller";
import type { LanguageIntelligence } from "./language-intelligence";
import styles from "./lsp.module.css";
import { serverForFile } from "./server-for-file";
import { statusText } from "./status-text";

/**
 * Below the editor: the language server's state for the active file's language, and the
 * collapsible list of problems in the open files (click one to go there).
 */
export function LanguagePanel({
  intelligence,
  controller,
  activePath,
}: {
  intelligence: LanguageIntelligence;
  controller: EditorController;
  activePath: string | null;
}) {
  const { statuses, problems } = useSyncExternalStore(
    intelligence.subscribe,
    intelligence.snapshot,
    intelligence.snapshot,
  );
  const [open, setOpen] = useState(true);
  const language = activePath ? serverForFile(activePath)?.language : undefined;
  const status = language ? statuses[language] : undefined;
  const errors = problems.filter((p) => p.severity === "error").length;

  return (
    <div className={styles.panel}>
      <div className={styles.bar}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          data-testid="problems-toggle"
          onClick={() => setOpen(!open)}
        >
          {open ? "▾" : "▸"} Problems ({problems.length}
          {errors > 0 ? `, ${errors} error${errors === 1 ? "" : "s"}` : ""})
        </button>
        {status && (
          <output
            className={styles.status}
            data-testid="lsp-status"
            data-language={status.language}
            data-state={status.state}
          >
            {statusText(status)}
            {status.state === "missing" && (
              <button
                type="button"
                className={styles.retry}
                onClick={() => intelligence.retry(status.language)}
              >
                Retry
              </button>
            )}
          </output>
        )}
      </div>
      {open && (
        <ul className={styles.problems} data-testid="problems">
          {problems.map((problem) => (
            <li key={`${problem.path}:${problem.offset}:${problem.message}`}>
              <button
                type="button"
                className={styles.problem}
                data-testid="problem"
                data-severity={problem.severity}
                title={problem.path}
                onClick={() => void controller.goTo(problem.path, problem.line, problem.column)}
              >
                <span className={styles[problem.severity]}>{problem.severity}</span>
                <span className={styles.place}>
                  {baseName(problem.path)}:{problem.line}:{problem.column}
                </span>
                <span className={styles.message}>{problem.message}</span>
                {problem.source && <span className={styles.source}>{problem.source}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
