"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { OWN_TOAST, SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useToasts } from "../toast/Toasts";
import { openInNewTab } from "./open-in-new-tab";
import styles from "./preview.module.css";
import { previewPath } from "./preview-path";
import { previewProblem } from "./preview-problem";

/**
 * What a port of the workspace serves, in a pane beside the editor: an iframe of its own origin
 * (one per port, never the IDE's), a bar for the path within that origin, reload, open in a new
 * tab and close. Each load asks `preview.open` for a one-time URL; the preview host trades its
 * token for a cookie of its own and redirects to the path.
 */
export function PreviewPane({
  workspaceId,
  port,
  running,
  listening,
  openable,
  onClose,
}: {
  workspaceId: string;
  port: number;
  running: boolean;
  /** The port is in the live list: something listens on it now. */
  listening: boolean;
  /** The person's role may open the port as it is shared now (a viewer, a private port: no). */
  openable: boolean;
  onClose(): void;
}) {
  const trpc = useTRPC();
  const toasts = useToasts();
  const open = useMutation(trpc.preview.open.mutationOptions({ meta: SHOWN_INLINE }));
  // Its own, so a tab that could not open (toasted) leaves the pane's page alone.
  const openTab = useMutation(trpc.preview.open.mutationOptions({ meta: OWN_TOAST }));
  const [address, setAddress] = useState("/");
  // The path to show, and a count that makes a reload of the same path a new load.
  const [wanted, setWanted] = useState({ path: "/", load: 0 });
  const [src, setSrc] = useState<string | null>(null);
  const ready = running && listening && openable;
  const { mutateAsync } = open;

  // Loads again when the port starts listening anew (a dev server restarted) or the workspace is back.
  useEffect(() => {
    if (!ready) return;
    let current = true;
    setSrc(null);
    mutateAsync({ workspaceId, port, path: wanted.path }).then(
      ({ url }) => current && setSrc(url),
      () => undefined, // shown from the mutation's error below
    );
    return () => {
      current = false;
    };
  }, [ready, workspaceId, port, wanted, mutateAsync]);

  const go = (event: FormEvent) => {
    event.preventDefault();
    const path = previewPath(address);
    setAddress(path);
    setWanted(({ load }) => ({ path, load: load + 1 }));
  };
  const reload = () => setWanted(({ path, load }) => ({ path, load: load + 1 }));
  const newTab = () =>
    openInNewTab(
      openTab.mutateAsync({ workspaceId, port, path: previewPath(address) }).then(({ url }) => url),
    ).catch((error) => toasts.error(`Could not open port ${port}: ${errorMessage(error)}`));

  const problem = previewProblem({ port, running, listening, openable, openError: open.error });

  return (
    <section
      className={styles.pane}
      data-testid="preview-pane"
      data-port={port}
      aria-label={`Preview of port ${port}`}
    >
      <div className={styles.bar}>
        <span className={styles.port}>:{port}</span>
        <form className={styles.address} onSubmit={go}>
          <input
            type="text"
            className={styles.field}
            data-testid="preview-address"
            aria-label="Path in the preview"
            value={address}
            spellCheck={false}
            onChange={(e) => setAddress(e.target.value)}
          />
        </form>
        <button
          type="button"
          className={styles.tool}
          data-testid="preview-reload"
          title="Reload"
          onClick={reload}
        >
          ↻
        </button>
        <button
          type="button"
          className={styles.tool}
          data-testid="preview-new-tab"
          title="Open in a new tab"
          onClick={() => void newTab()}
        >
          ↗
        </button>
        <button
          type="button"
          className={styles.tool}
          data-testid="preview-close"
          title="Close the preview"
          onClick={onClose}
        >
          ×
        </button>
      </div>
      {problem ? (
        <p className={styles.problem} role="alert" data-testid="preview-problem">
          {problem}
        </p>
      ) : src ? (
        // Scripts, forms and the app's own origin (cookies, storage, fetches to itself) are what a dev
        // server needs; its origin is not the IDE's, so allow-same-origin gives it nothing of the
        // IDE. Links it opens in a new tab leave the sandbox. No other permission is delegated.
        <iframe
          key={src}
          className={styles.frame}
          data-testid="preview-frame"
          title={`Port ${port}`}
          src={src}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
        />
      ) : (
        <p className={styles.problem}>
          <span className="spinner" /> Opening port {port}…
        </p>
      )}
    </section>
  );
}
