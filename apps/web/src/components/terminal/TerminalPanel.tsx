"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { type Ref, useEffect, useImperativeHandle, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useCanEdit } from "../access/workspace-access";
import { TerminalMenu } from "./TerminalMenu";
import { TerminalView } from "./TerminalView";
import styles from "./terminal.module.css";
import { DEFAULT_TERMINAL, firstTerminalTabs, loadTerminalNames, saveTerminalNames } from "./terminal-tabs";

/** How often the list of open terminals (a viewer's tabs, everyone's menu) follows what people open and close. */
const REFRESH_MS = 3000;

export interface TerminalPanelHandle {
  /** Opens a new terminal tab. */
  add(): void;
}

/**
 * The terminal tabs. An editor's tabs are theirs (remembered in this browser); on a first visit
 * they are the terminals already open in the workspace. "+" asks the service for a new terminal,
 * which picks a name nobody uses (a name picked here could be a shell someone else opened since).
 * The menu beside it lists every open terminal, to join one. A viewer's tabs are the open
 * terminals, following what the editors do: a viewer opens none.
 */
export function TerminalPanel({
  workspaceId,
  running,
  maximised,
  onToggleMaximised,
  ref,
}: {
  workspaceId: string;
  running: boolean;
  /** The terminal takes the editor's room too. */
  maximised: boolean;
  onToggleMaximised(): void;
  ref?: Ref<TerminalPanelHandle>;
}) {
  const trpc = useTRPC();
  const readOnly = !useCanEdit();
  // An editor's tabs: undefined until read from localStorage after mount (the server render has
  // none), null on a first visit until the open terminals are known.
  const [own, setOwn] = useState<string[] | null | undefined>(undefined);
  const [chosen, setChosen] = useState<string | null>(null);
  // Everyone follows the open terminals: a viewer's tabs, the menu, an editor's first visit.
  const open = useQuery(
    trpc.terminal.list.queryOptions({ workspaceId }, { enabled: running, refetchInterval: REFRESH_MS }),
  );
  const openNames = open.data?.names;
  const create = useMutation(
    trpc.terminal.create.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: ({ name }) => {
        show(name);
        void open.refetch();
      },
    }),
  );

  useEffect(() => {
    setOwn(loadTerminalNames(window.localStorage, workspaceId));
  }, [workspaceId]);
  useEffect(() => {
    if (readOnly || own !== null) return;
    if (openNames) setOwn(firstTerminalTabs(openNames));
    else if (open.isError || !running) setOwn([DEFAULT_TERMINAL]);
  }, [readOnly, own, openNames, open.isError, running]);

  const names = readOnly ? (openNames ?? null) : (own ?? null);
  const active = chosen !== null && names?.includes(chosen) ? chosen : (names?.[0] ?? null);

  function update(next: string[], nextActive: string | null) {
    setOwn(next);
    setChosen(nextActive);
    saveTerminalNames(window.localStorage, workspaceId, next);
  }

  function add() {
    if (!names || readOnly || !running || create.isPending) return;
    create.mutate({ workspaceId });
  }

  /** Shows the open terminal `name`, adding a tab for it if this person has none. */
  function show(name: string) {
    if (readOnly || !names || names.includes(name)) setChosen(name);
    else update([...names, name], name);
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
            onClick={() => setChosen(name)}
            onKeyDown={(event) => event.key === "Enter" && setChosen(name)}
          >
            {name}
            {!readOnly && (
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
            )}
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
            disabled={!running || create.isPending}
            onClick={add}
          >
            +
          </button>
        )}
        <TerminalMenu open={running ? openNames : []} shown={names ?? []} onChoose={show} />
        {create.isError && (
          <span className={styles.createError} role="alert">
            {errorMessage(create.error)}
          </span>
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
            {readOnly
              ? "No terminal is open in this workspace; one shows here once an editor opens it."
              : "No terminal open. Press + to start one."}
          </p>
        )}
      </div>
    </section>
  );
}
