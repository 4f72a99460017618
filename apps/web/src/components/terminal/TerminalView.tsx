"use client";

import "@xterm/xterm/css/xterm.css";
import { AccessCloseCode } from "@coder/protocol";
import { useEffect, useRef, useState } from "react";
import { possessiveList, sharedFit } from "./shared-size";
import styles from "./terminal.module.css";
import { type TerminalAttached, TerminalConnection, type TerminalStatus } from "./terminal-connection";
import { terminalUrl } from "./terminal-socket";
import { XTERM_OPTIONS } from "./xterm-theme";

/**
 * One xterm attached to the tmux session `name`; stays mounted (and connected) while hidden.
 * `readOnly` (a viewer): the screen shows, keys go nowhere (the service refuses them anyway).
 */
export function TerminalView({
  workspaceId,
  name,
  active,
  readOnly,
}: {
  workspaceId: string;
  name: string;
  active: boolean;
  readOnly: boolean;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const fitRef = useRef<(() => void) | null>(null);
  const [status, setStatus] = useState<TerminalStatus>({ state: "connecting" });
  const [attached, setAttached] = useState<TerminalAttached | null>(null);
  const [geometry, setGeometry] = useState<Geometry | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let cleanup: (() => void) | undefined;
    let cancelled = false;

    // xterm touches the DOM when loaded, so it is imported in the browser only.
    void Promise.all([import("@xterm/xterm"), import("@xterm/addon-fit")]).then(
      ([{ Terminal }, { FitAddon }]) => {
        if (cancelled) return;
        const term = new Terminal({ ...XTERM_OPTIONS, disableStdin: readOnly });
        const fitAddon = new FitAddon();
        term.loadAddon(fitAddon);
        term.open(host);
        // A hidden tab has no size; fitting it would shrink the session to nothing.
        const fit = () => {
          if (host.offsetWidth > 0 && host.offsetHeight > 0) fitAddon.fit();
          setGeometry(geometryOf(host, term.cols, term.rows));
        };
        fit();
        fitRef.current = fit;

        const connection = new TerminalConnection({
          url: terminalUrl(window.location, workspaceId, name),
          sink: {
            write: (data, done) => term.write(data, done),
            size: () => ({ cols: term.cols, rows: term.rows }),
          },
          onStatus: setStatus,
          onAttached: setAttached,
        });
        const subscriptions = [
          term.onResize(({ cols, rows }) => {
            connection.resize(cols, rows);
            setGeometry(geometryOf(host, cols, rows));
          }),
          ...(readOnly
            ? []
            : [
                term.onData((data) => connection.sendInput(data)),
                term.onBinary((data) => connection.sendBinary(data)),
              ]),
        ];
        const observer = new ResizeObserver(fit);
        observer.observe(host);
        connection.connect();

        cleanup = () => {
          observer.disconnect();
          for (const subscription of subscriptions) subscription.dispose();
          connection.dispose();
          term.dispose();
          fitRef.current = null;
        };
      },
    );

    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [workspaceId, name, readOnly]);

  useEffect(() => {
    if (!active) return;
    fitRef.current?.();
    hostRef.current?.querySelector("textarea")?.focus();
  }, [active]);

  return (
    <div
      className={styles.terminal}
      hidden={!active}
      data-testid="terminal"
      data-name={name}
      data-state={status.state}
      data-read-only={readOnly}
      data-cols={geometry?.cols}
      data-rows={geometry?.rows}
    >
      <div ref={hostRef} className={styles.xterm} />
      {geometry && <SharedWindow attached={attached} geometry={geometry} />}
      {status.state === "reconnecting" && (
        <output className={styles.overlay}>
          <span className="spinner" /> Reconnecting…
          {status.problem && <span className={styles.problem}>{status.problem}</span>}
        </output>
      )}
      {status.state === "revoked" && (
        <output className={styles.overlay} data-testid="terminal-revoked">
          {status.problem}
          {status.code === AccessCloseCode.LoggedOut && <a href="/login">Log in again</a>}
        </output>
      )}
      {status.state === "connecting" && (
        <output className={styles.overlay}>
          <span className="spinner" /> Connecting…
        </output>
      )}
    </div>
  );
}

/** This panel's terminal in cells, and a cell's size in pixels. */
interface Geometry {
  cols: number;
  rows: number;
  cellWidth: number;
  cellHeight: number;
}

function geometryOf(host: HTMLElement, cols: number, rows: number): Geometry {
  const screen = host.querySelector<HTMLElement>(".xterm-screen");
  return {
    cols,
    rows,
    cellWidth: screen && cols > 0 ? screen.offsetWidth / cols : 0,
    cellHeight: screen && rows > 0 ? screen.offsetHeight / rows : 0,
  };
}

/**
 * Who is attached, and, when the shared window is smaller than this panel (someone with input has
 * a smaller one), the unused area hatched with whose window it is sized for.
 */
function SharedWindow({ attached, geometry }: { attached: TerminalAttached | null; geometry: Geometry }) {
  const fit = sharedFit(attached, geometry.cols, geometry.rows);
  // Alone at one's own terminal there is nothing to say (and nothing to cover the screen with).
  if (fit.names.length < 2 && !fit.grid) return null;
  const grid = fit.grid;
  const width = grid ? Math.min(grid.cols, geometry.cols) * geometry.cellWidth : 0;
  const height = grid ? Math.min(grid.rows, geometry.rows) * geometry.cellHeight : 0;
  return (
    <>
      {grid && (
        <div
          className={styles.unused}
          data-testid="terminal-unused"
          data-grid={`${grid.cols}x${grid.rows}`}
          style={{ clipPath: unusedArea(width, height) }}
        />
      )}
      <div className={styles.attached} data-testid="terminal-attached">
        {grid && fit.sizedFor.length > 0 && (
          <span data-testid="terminal-sized-for">
            sized for the smallest window: {possessiveList(fit.sizedFor)}
          </span>
        )}
        <span title="People attached to this terminal">
          attached:{" "}
          {fit.names.map((name) => (
            <span key={name} className={styles.attachedName} data-testid="terminal-attached-name">
              {name}
            </span>
          ))}
          {fit.more > 0 && ` and ${fit.more} more`}
        </span>
      </div>
    </>
  );
}

/** The panel minus the window's top-left `width` × `height` pixels (inside the terminal's padding). */
function unusedArea(width: number, height: number): string {
  const w = `calc(var(--terminal-pad-left) + ${width}px)`;
  const h = `calc(var(--terminal-pad-top) + ${height}px)`;
  return `polygon(${w} 0, 100% 0, 100% 100%, 0 100%, 0 ${h}, ${w} ${h})`;
}
