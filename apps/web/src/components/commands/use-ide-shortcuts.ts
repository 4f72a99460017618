"use client";

import { useEffect, useRef } from "react";
import type { IdeAction, IdeCommands } from "./ide-actions";
import { isMac, matches, parseShortcut } from "./shortcut";

/**
 * In a terminal, Ctrl with a letter belongs to the shell (Ctrl-P is its history, Ctrl-F a cursor
 * move): only shortcuts with Shift, Alt or Cmd, or on other keys (Ctrl-`), reach the IDE there.
 */
function belongsToShell(event: KeyboardEvent): boolean {
  const inTerminal = event.target instanceof Element && event.target.closest(".xterm") !== null;
  const plainCtrl = event.ctrlKey && !event.shiftKey && !event.altKey && !event.metaKey;
  return inTerminal && plainCtrl && /^Key[A-Z]$/.test(event.code);
}

/**
 * Runs the actions' shortcuts from anywhere on the page. It listens before the page's own
 * handlers (capture), so the editor's and the terminal's key bindings see only what is not an
 * IDE shortcut; a shortcut whose action is unavailable (no file open) does what it did before.
 */
export function useIdeShortcuts(actions: readonly IdeAction[], ide: IdeCommands): void {
  const latest = useRef(ide);
  latest.current = ide;
  useEffect(() => {
    const mac = isMac();
    const bound = actions.flatMap((action) =>
      action.keys ? [{ action, shortcut: parseShortcut(action.keys) }] : [],
    );
    const onKeyDown = (event: KeyboardEvent) => {
      const hit = bound.find(({ shortcut }) => matches(shortcut, event, mac));
      if (!hit || belongsToShell(event)) return;
      const current = latest.current;
      if (hit.action.when && !hit.action.when(current)) return;
      event.preventDefault();
      event.stopPropagation();
      hit.action.run(current);
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [actions]);
}
