"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import { EXPIRY_PRESETS, type ExpiryLabel, linkState } from "./expiry-presets";
import { SharePeople } from "./SharePeople";
import styles from "./share.module.css";

/** While the dialog is open, the list refreshes this often (who joined, open connections). */
const REFRESH_MS = 3000;

export interface ShareDialogHandle {
  open(): void;
}

/**
 * The owner's Share button and its dialog: share with people by name, make viewer/editor links,
 * copy them, revoke them. The command palette opens it through `ref`.
 */
export function ShareButton({ workspaceId, ref }: { workspaceId: string; ref?: Ref<ShareDialogHandle> }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const show = () => {
    setOpen(true);
    dialog.current?.showModal();
  };
  useImperativeHandle(ref, () => ({ open: show }));
  return (
    <>
      <button type="button" className="button" data-testid="share-button" onClick={show}>
        Share
      </button>
      <dialog
        ref={dialog}
        className={styles.dialog}
        data-testid="share-dialog"
        aria-labelledby="share-title"
        onClose={() => setOpen(false)}
      >
        {open && <ShareLinks workspaceId={workspaceId} close={() => dialog.current?.close()} />}
      </dialog>
    </>
  );
}

function ShareLinks({ workspaceId, close }: { workspaceId: string; close: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<"viewer" | "editor">("viewer");
  const [expiry, setExpiry] = useState<ExpiryLabel>("1 day");
  const [copied, setCopied] = useState(false);
  const links = useQuery({
    ...trpc.share.list.queryOptions({ workspaceId }),
    refetchInterval: REFRESH_MS,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.share.list.queryKey({ workspaceId }) });
  const create = useMutation(trpc.share.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.share.revoke.mutationOptions({ meta: SHOWN_INLINE, onSuccess: refresh }));
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const made = create.data;
  const copy = async () => {
    if (!made) return;
    await navigator.clipboard.writeText(made.url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <div className={styles.body}>
      <header className={styles.head}>
        <h2 id="share-title" className={styles.title}>
          Share this workspace
        </h2>
        <button type="button" className={styles.close} aria-label="Close" onClick={close}>
          ×
        </button>
      </header>
      <SharePeople workspaceId={workspaceId} />
      <form
        className={styles.create}
        onSubmit={(event) => {
          event.preventDefault();
          setCopied(false);
          const seconds = EXPIRY_PRESETS.find((p) => p.label === expiry)?.seconds ?? null;
          create.mutate({ workspaceId, role, ...(seconds === null ? {} : { expiresInSeconds: seconds }) });
        }}
      >
        <label>
          People with the link can{" "}
          <select
            data-testid="share-role"
            value={role}
            onChange={(event) => setRole(event.target.value as "viewer" | "editor")}
          >
            <option value="viewer">view</option>
            <option value="editor">edit</option>
          </select>
        </label>
        <label>
          expires{" "}
          <select
            data-testid="share-expiry"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value as ExpiryLabel)}
          >
            {EXPIRY_PRESETS.map((preset) => (
              <option key={preset.label} value={preset.label}>
                {preset.seconds === null ? "never" : `in ${preset.label}`}
              </option>
            ))}
          </select>
        </label>
        <PendingButton
          pending={create.isPending}
          type="submit"
          className="button primary"
          data-testid="share-create"
        >
          Create link
        </PendingButton>
      </form>
      {made && (
        <div className={styles.made}>
          <input
            readOnly
            className={styles.url}
            data-testid="share-url"
            value={made.url}
            onFocus={(event) => event.target.select()}
          />
          <button type="button" className="button" data-testid="share-copy" onClick={() => void copy()}>
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      )}
      <p className={styles.hint}>
        Anyone with a link joins under a name they choose. Revoking a link disconnects its people at once.
      </p>
      {(links.error ?? revoke.error) && (
        <p className={styles.error} role="alert">
          {errorMessage(links.error ?? revoke.error)}
        </p>
      )}
      <ul className={styles.links} data-testid="share-links">
        {links.data?.length === 0 && <li className={styles.hint}>No links yet.</li>}
        {[...(links.data ?? [])].reverse().map((link) => {
          const state = linkState(link, now);
          return (
            <li
              key={link.id}
              className={`${styles.link} ${state.live ? "" : styles.dead}`}
              data-testid="share-link"
              data-state={state.live ? "live" : state.text}
            >
              <span className={styles.role}>{link.role}</span>
              <span className={styles.linkState}>{state.text}</span>
              <span className={styles.joined} data-testid="share-joined">
                {link.joined.length === 0 ? "no one joined yet" : `joined: ${link.joined.join(", ")}`}
                {link.openConnections > 0 && ` · ${link.openConnections} open`}
              </span>
              {state.live && (
                <button
                  type="button"
                  className="button danger"
                  data-testid="share-revoke"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate({ shareId: link.id })}
                >
                  Revoke
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
