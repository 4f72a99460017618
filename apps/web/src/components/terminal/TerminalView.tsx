"use client";

import "@xterm/xterm/css/xterm.css";
import { AccessCloseCode } from "@coder/protocol";
import { useEffect, useRef, useState } from "react";
import styles from "./terminal.module.css";
import { TerminalConnection, type TerminalStatus } from "./terminal-connection";
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
        });
        const subscriptions = [
          term.onResize(({ cols, rows }) => connection.resize(cols, rows)),
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
    >
      <div ref={hostRef} className={styles.xterm} />
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
