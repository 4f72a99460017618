"use client";

import { usePresenceState } from "../presence/presence-context";
import styles from "./editor.module.css";

/** Says plainly whom this tab follows and how to stop. */
export function FollowBar({ name }: { name: string }) {
  const { follow } = usePresenceState();
  return (
    <div className={styles.following} data-testid="follow-bar" data-follow-keep>
      <span>
        Following {name}: you see their file at their cursor. Type, click in the editor or press Esc to stop.
      </span>
      <button type="button" className="button" data-testid="follow-stop" onClick={() => follow(null)}>
        Stop following
      </button>
    </div>
  );
}
