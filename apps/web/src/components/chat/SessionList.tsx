import type { Session } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./chat.module.css";

/** The workspace's sessions, newest first; the current one's title can be renamed in place by an editor. */
export function SessionList({
  sessions,
  current,
  onChoose,
  onCreate,
}: {
  sessions: Session[];
  current: string | undefined;
  onChoose: (id: string) => void;
  /** Starts a new conversation (a draft until its first message); absent for a viewer, who cannot. */
  onCreate?: () => void;
}) {
  // Whoever may start a conversation may rename one; a viewer does neither.
  const canRename = onCreate !== undefined;
  const ordered = [...sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <div className={styles.sessions}>
      <div className={styles.sessionsHeader}>
        <span className={styles.sessionsLabel}>Sessions</span>
        {onCreate && (
          <button type="button" className="button" data-testid="session-new" onClick={onCreate}>
            New
          </button>
        )}
      </div>
      <ul className={styles.sessionItems}>
        {ordered.map((s) => (
          <li key={s.id}>
            {s.id === current && canRename ? (
              <TitleEditor session={s} />
            ) : (
              <button
                type="button"
                className={`${styles.sessionItem} ${s.id === current ? styles.sessionCurrent : ""}`}
                data-testid="session-item"
                data-id={s.id}
                data-current={s.id === current || undefined}
                onClick={() => onChoose(s.id)}
              >
                {s.title}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The current session's title: shown as text, an input on double-click, saved on Enter or blur. */
function TitleEditor({ session }: { session: Session }) {
  const trpc = useTRPC();
  const update = useMutation(
    trpc.session.update.mutationOptions({ meta: SHOWN_INLINE, onSuccess: () => setEditing(false) }),
  );
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const save = () => {
    const next = title.trim();
    if (next && next !== session.title) update.mutate({ sessionId: session.id, title: next });
    else setEditing(false);
  };
  if (!editing) {
    return (
      <button
        type="button"
        className={`${styles.sessionItem} ${styles.sessionCurrent}`}
        data-testid="session-item"
        data-id={session.id}
        data-current="true"
        title="Double-click to rename"
        onDoubleClick={() => {
          setTitle(session.title);
          setEditing(true);
        }}
      >
        {session.title}
      </button>
    );
  }
  return (
    <span>
      <input
        type="text"
        aria-label="Session title"
        className={styles.titleInput}
        value={title}
        maxLength={200}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to rename
        autoFocus
        onChange={(e) => setTitle(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === "Enter") save();
          if (e.key === "Escape") setEditing(false);
        }}
      />
      {update.isError && <span className={styles.errorText}>{errorMessage(update.error)}</span>}
    </span>
  );
}
