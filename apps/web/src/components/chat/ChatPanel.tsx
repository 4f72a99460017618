"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { useCanEdit } from "../access/workspace-access";
import { Composer } from "./Composer";
import { Conversation } from "./Conversation";
import styles from "./chat.module.css";
import { SessionList } from "./SessionList";
import { useSessionList } from "./use-session-list";

const storageKey = (workspaceId: string) => `coder.chat.session.${workspaceId}`;

/**
 * The agent's side of the IDE: the workspace's sessions, and the chosen one's conversation. A
 * viewer watches: no new sessions, no prompts, no answers to the agent's requests.
 */
export function ChatPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const sessions = useSessionList(workspaceId);
  const models = useQuery(trpc.models.list.queryOptions());
  const [chosen, setChosen] = useState<string | null>(null);
  const canStart = useCanEdit();
  // A new conversation is a draft until its first message: only then is a session created.
  const [drafting, setDrafting] = useState(false);

  useEffect(() => {
    setChosen(localStorage.getItem(storageKey(workspaceId)));
  }, [workspaceId]);

  const choose = (id: string) => {
    localStorage.setItem(storageKey(workspaceId), id);
    setChosen(id);
    setDrafting(false);
  };
  // The new session joins the list through the live list; until then it is chosen already.
  const started = choose;

  const loaded = sessions.sessions !== undefined;
  const list = (sessions.sessions ?? []).filter((s) => s.parentId === null);
  // The remembered session if it still exists, else the newest.
  const current =
    list.find((s) => s.id === chosen)?.id ??
    [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]?.id;

  return (
    <section
      className="side-panel"
      data-testid="chat-panel"
      data-ready={loaded}
      data-draft={drafting}
      aria-label="Agent"
    >
      <SessionList
        sessions={list}
        current={drafting ? undefined : current}
        onChoose={choose}
        onCreate={canStart ? () => setDrafting(true) : undefined}
      />
      {(sessions.error ?? models.error) && (
        <p className={styles.notice} role="alert">
          {sessions.error ?? errorMessage(models.error)}
        </p>
      )}
      {!loaded && !sessions.error && (
        <p className={styles.notice}>
          <span className="spinner" /> Loading sessions…
        </p>
      )}
      {drafting ? (
        <>
          <p className={styles.notice}>New conversation: ask the agent to read, change or run something.</p>
          <span className={styles.spacer} />
          <Composer
            sessionId={null}
            running={false}
            disabled={models.data !== undefined && models.data.models.length === 0}
            draft={{ workspaceId, onStarted: started }}
          />
        </>
      ) : current ? (
        <Conversation key={current} sessionId={current} models={models.data} />
      ) : (
        loaded && (
          <p className={styles.notice}>
            No conversation yet.{" "}
            {canStart && (
              <button type="button" className="button primary" onClick={() => setDrafting(true)}>
                Start one
              </button>
            )}
          </p>
        )
      )}
    </section>
  );
}
