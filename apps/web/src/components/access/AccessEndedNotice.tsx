"use client";

import { useSyncExternalStore } from "react";
import { accessEnded } from "../../lib/auth/access-ended";
import styles from "./access.module.css";

const never = () => null;

/** Covers the page once access ended for good, saying why; everything under it is dead. */
export function AccessEndedNotice() {
  const code = useSyncExternalStore(accessEnded.subscribe, accessEnded.snapshot, never);
  if (code === null) return null;
  return (
    <div className={styles.backdrop}>
      <div className={styles.notice} role="alertdialog" aria-modal="true" data-testid="access-ended">
        <h2 className={styles.noticeTitle}>{accessEnded.message(code)}</h2>
        <p>You no longer have access to this workspace. Ask its owner for a new link.</p>
      </div>
    </div>
  );
}
