"use client";

import { AccessCloseCode } from "@coder/protocol";
import { useSyncExternalStore } from "react";
import { accessEnded } from "../../lib/auth/access-ended";
import styles from "./access.module.css";
import { CopyUnsaved } from "./CopyUnsaved";
import { leaveWorkspace } from "./leave-workspace";
import { unsavedAtEnd } from "./unsaved-at-end";

const never = () => null;
const nothing = () => [];

/** Codes that end a guest's link: they have no workspace list to go back to. */
const GUEST_ENDINGS: ReadonlySet<number> = new Set([
  AccessCloseCode.LinkRevoked,
  AccessCloseCode.LinkExpired,
]);

/**
 * Covers the page once access ended for good, saying why; everything under it is read-only. It
 * offers what the service never got of the person's typing, and a way out that fits them: a
 * guest leaves (to a page that says how to come back), the owner goes back to the workspaces.
 */
export function AccessEndedNotice() {
  const code = useSyncExternalStore(accessEnded.subscribe, accessEnded.snapshot, never);
  const unsaved = useSyncExternalStore(unsavedAtEnd.subscribe, unsavedAtEnd.snapshot, nothing);
  if (code === null) return null;
  const guest = GUEST_ENDINGS.has(code);
  return (
    <div className={styles.backdrop}>
      <div className={styles.notice} role="alertdialog" aria-modal="true" data-testid="access-ended">
        <h2 className={styles.noticeTitle}>{accessEnded.message(code)}</h2>
        <p>You no longer have access to this workspace. Ask its owner for a new link.</p>
        {unsaved.length > 0 && <CopyUnsaved texts={unsaved} />}
        <div className={styles.actions}>
          {guest ? (
            <button
              type="button"
              className="button primary"
              data-testid="access-ended-leave"
              onClick={() => void leaveWorkspace()}
            >
              Leave
            </button>
          ) : (
            <a className="button primary" href="/" data-testid="access-ended-back">
              Back to the workspaces
            </a>
          )}
        </div>
      </div>
    </div>
  );
}
