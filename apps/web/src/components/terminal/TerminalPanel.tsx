"use client";

import { type Ref, useEffect, useImperativeHandle, useState } from "react";
import { useCanEdit } from "../access/workspace-access";
import { TerminalView } from "./TerminalView";
import styles from "./terminal.module.css";
import { loadTerminalNames, nextTerminalName, saveTerminalNames } from "./terminal-tabs";

export interface TerminalPanelHandle {
  /** Opens a new terminal tab. */
  add(): void;
}

export function TerminalPanel({
  workspaceId,
  maximised,
  onToggleMaximised,
  ref,
}: {
  workspaceId: string;
  /** The terminal takes the editor's room too. */
  maximised: boolean;
  onToggleMaximised(): void;
  ref?: Ref<TerminalPanelHandle>;
}) {
  // Read from localStorage after mount: the server render has no storage.
  const [names, setNames] = useState<string[] | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const readOnly = !useCanEdit();

  useEffect(() => {
    const saved = loadTerminalNames(window.localStorage, workspaceId);
    setNames(saved);
    setActive(saved[0] ?? null);
  }, [workspaceId]);

  function update(next: string[], nextActive: string | null) {
    setNames(next);
    setActive(nextActive);
    saveTerminalNames(window.localStorage, workspaceId, next);
  }

  function add() {
    if (!names) return;
    const name = nextTerminalName(names);
    update([...names, name], name);
  }

  useImperativeHandle(ref, () => ({ add }));

  function close(name: string) {
    if (!names) return;
    const next = names.filter((n) => n !== name);
    update(next, active === name ? (next.at(-1) ?? null) : active);
  }

  return (
    <section className={styles.panel} data-testid="terminal-panel">
      <div className={styles.tabs} role="tablist">
        {names?.map((name) => (
          <div
            key={name}
            role="tab"
            tabIndex={0}
            aria-selected={name === active}
            className={`${styles.tab} ${name === active ? styles.activeTab : ""}`}
            data-testid="terminal-tab"
            data-name={name}
            onClick={() => setActive(name)}
            onKeyDown={(event) => event.key === "Enter" && setActive(name)}
          >
            {name}
            <button
              type="button"
              className={styles.closeTab}
              title="Close the tab (the tmux session keeps running)"
              aria-label={`Close terminal ${name}`}
              onClick={(event) => {
                event.stopPropagation();
                close(name);
              }}
            >
              ×
            </button>
          </div>
        ))}
        {readOnly ? (
          <span className={styles.viewOnly} data-testid="terminal-view-only">
            view only
          </span>
        ) : (
          <button
            type="button"
            className={styles.addTab}
            data-testid="terminal-add"
            title="New terminal"
            onClick={add}
          >
            +
          </button>
        )}
        <button
          type="button"
          className={styles.maximise}
          data-testid="terminal-maximise"
          aria-pressed={maximised}
          title={maximised ? "Restore the editor" : "Maximise the terminal"}
          onClick={onToggleMaximised}
        >
          {maximised ? "▾" : "▴"}
        </button>
      </div>
      <div className={styles.body}>
        {names?.map((name) => (
          <TerminalView
            key={name}
            workspaceId={workspaceId}
            name={name}
            active={name === active}
            readOnly={readOnly}
          />
        ))}
        {names?.length === 0 && (
          <p className={styles.empty}>
            {readOnly ? "No terminal open." : "No terminal open. Press + to start one."}
          </p>
        )}
      </div>
    </section>
  );
}
