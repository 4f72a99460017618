"use client";

import { useEffect, useRef, useState } from "react";
import styles from "./terminal.module.css";

/**
 * The button beside "+" that lists every terminal open in the workspace (whoever opened it), so a
 * person can join one they have no tab for; the ones they have a tab for are marked.
 */
export function TerminalMenu({
  open,
  shown,
  onChoose,
}: {
  /** The workspace's open terminals; undefined while not known. */
  open: readonly string[] | undefined;
  /** The terminals this person has a tab for. */
  shown: readonly string[];
  onChoose(name: string): void;
}) {
  const [expanded, setExpanded] = useState(false);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!expanded) return;
    const closeOnOutside = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) setExpanded(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => event.key === "Escape" && setExpanded(false);
    window.addEventListener("mousedown", closeOnOutside);
    window.addEventListener("keydown", closeOnEscape);
    return () => {
      window.removeEventListener("mousedown", closeOnOutside);
      window.removeEventListener("keydown", closeOnEscape);
    };
  }, [expanded]);

  return (
    <div ref={menu} className={styles.menuAnchor}>
      <button
        type="button"
        className={styles.addTab}
        data-testid="terminal-menu"
        aria-haspopup="menu"
        aria-expanded={expanded}
        title="The workspace's open terminals"
        onClick={() => setExpanded((e) => !e)}
      >
        ▾
      </button>
      {expanded && (
        <div className={`popup-menu ${styles.menu}`} role="menu" data-testid="terminal-menu-list">
          {open === undefined && <span className={styles.menuNote}>Looking for terminals…</span>}
          {open?.length === 0 && <span className={styles.menuNote}>No terminal is open.</span>}
          {open?.map((name) => (
            <button
              key={name}
              type="button"
              role="menuitem"
              className={`popup-menu-item ${styles.menuItem}`}
              data-testid="terminal-menu-item"
              data-name={name}
              data-shown={shown.includes(name) || undefined}
              onClick={() => {
                setExpanded(false);
                onChoose(name);
              }}
            >
              {name}
              {shown.includes(name) && <span className={styles.menuNote}> · open here</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
