"use client";

import type { PreviewPort, PreviewVisibility } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { OWN_TOAST } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useWorkspaceAccess } from "../access/workspace-access";
import { openInNewTab } from "../preview/open-in-new-tab";
import { useToasts } from "../toast/Toasts";
import { canOpenPort } from "./port-rows";
import styles from "./ports.module.css";

const VISIBILITIES: Record<PreviewVisibility, { label: string; who: string }> = {
  private: { label: "Private", who: "You and the workspace's editors" },
  workspace: { label: "Workspace", who: "Everyone with a role on the workspace, viewers too" },
  public: { label: "Public", who: "Anyone with the link, signed in or not" },
};

/**
 * The ports something listens on in the workspace, live: each with its process and who may see
 * it, to open in a new tab or in the pane beside the editor. Only the owner changes who may see
 * a port; the others read it. A viewer gets Open only for the ports shared with them.
 */
export function PortsPanel({
  workspaceId,
  ports,
  onOpenBeside,
}: {
  workspaceId: string;
  ports: readonly PreviewPort[] | undefined;
  onOpenBeside(port: number): void;
}) {
  const trpc = useTRPC();
  const toasts = useToasts();
  const { role } = useWorkspaceAccess();
  const open = useMutation(trpc.preview.open.mutationOptions({ meta: OWN_TOAST }));
  const setVisibility = useMutation(
    trpc.preview.setVisibility.mutationOptions({
      meta: OWN_TOAST,
      onError: (error) => toasts.error(`Could not change who sees the port: ${errorMessage(error)}`),
    }),
  );
  const openTab = (port: number) =>
    openInNewTab(open.mutateAsync({ workspaceId, port }).then(({ url }) => url)).catch((error) =>
      toasts.error(`Could not open port ${port}: ${errorMessage(error)}`),
    );

  return (
    <section className={styles.panel} data-testid="ports-panel" aria-label="Ports">
      {ports === undefined ? (
        <p className={styles.empty}>
          <span className="spinner" /> Looking for listening ports…
        </p>
      ) : ports.length === 0 ? (
        <p className={styles.empty} data-testid="ports-empty">
          Nothing listens on a port yet. Start a server in the terminal, e.g.{" "}
          <code>npx vite --host 127.0.0.1</code>, and it shows here.
        </p>
      ) : (
        <ul className={styles.list}>
          {ports.map((port) => (
            <li key={port.port} className={styles.row} data-testid="port-row" data-port={port.port}>
              <div className={styles.line}>
                <span className={styles.number}>{port.port}</span>
                <span className={styles.process} title={port.process ?? undefined}>
                  {port.process ?? "unknown process"}
                </span>
              </div>
              <div className={styles.line}>
                {role === "owner" ? (
                  <select
                    className={styles.visibility}
                    data-testid="port-visibility"
                    aria-label={`Who may open port ${port.port}`}
                    value={port.visibility}
                    disabled={setVisibility.isPending}
                    onChange={(e) =>
                      setVisibility.mutate({
                        workspaceId,
                        port: port.port,
                        visibility: e.target.value as PreviewVisibility,
                      })
                    }
                  >
                    {Object.entries(VISIBILITIES).map(([value, { label, who }]) => (
                      <option key={value} value={value} title={who}>
                        {label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span
                    className={styles.visibilityText}
                    data-testid="port-visibility-text"
                    title={VISIBILITIES[port.visibility].who}
                  >
                    {VISIBILITIES[port.visibility].label}
                  </span>
                )}
                {canOpenPort(role, port.visibility) && (
                  <>
                    <button
                      type="button"
                      className={styles.action}
                      data-testid="port-open"
                      title="Open in a new tab"
                      onClick={() => void openTab(port.port)}
                    >
                      Open
                    </button>
                    <button
                      type="button"
                      className={styles.action}
                      data-testid="port-open-beside"
                      title="Open in a pane beside the editor"
                      onClick={() => onOpenBeside(port.port)}
                    >
                      Open beside
                    </button>
                  </>
                )}
              </div>
              {port.visibility === "public" && (
                <p className={styles.warning} data-testid="port-public-warning">
                  ⚠ Public: anyone with the link can open this port, without signing in.
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
