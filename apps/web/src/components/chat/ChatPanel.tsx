"use client";

import type { Session } from "@coder/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import { Conversation } from "./Conversation";
import styles from "./chat.module.css";
import { ChatAccess } from "./chat-access";
import { SessionList } from "./SessionList";

const storageKey = (workspaceId: string) => `coder.chat.session.${workspaceId}`;

/**
 * The agent's side of the IDE: the workspace's sessions, and the chosen one's conversation.
 * `readOnly` (a viewer): watch only, no answers to the agent's approvals and questions.
 */
export function ChatPanel({ workspaceId, readOnly = false }: { workspaceId: string; readOnly?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.session.list.queryOptions({ workspaceId }));
  const models = useQuery(trpc.models.list.queryOptions());
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => {
    setChosen(localStorage.getItem(storageKey(workspaceId)));
  }, [workspaceId]);

  const choose = (id: string) => {
    localStorage.setItem(storageKey(workspaceId), id);
    setChosen(id);
  };
  const create = useMutation(
    trpc.session.create.mutationOptions({
      onSuccess: (session: Session) => {
        void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey({ workspaceId }) });
        choose(session.id);
      },
    }),
  );

  const list = (sessions.data ?? []).filter((s) => s.parentId === null);
  // The remembered session if it still exists, else the newest.
  const current =
    list.find((s) => s.id === chosen)?.id ??
    [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]?.id;

  return (
    <section
      className={styles.panel}
      data-testid="chat-panel"
      data-ready={sessions.isSuccess}
      aria-label="Agent"
    >
      <SessionList
        sessions={list}
        current={current}
        onChoose={choose}
        onCreate={() => create.mutate({ workspaceId, agent: "build" })}
        creating={create.isPending}
      />
      {(sessions.error ?? create.error ?? models.error) && (
        <p className={styles.notice} role="alert">
          {errorMessage(sessions.error ?? create.error ?? models.error)}
        </p>
      )}
      {sessions.isPending && (
        <p className={styles.notice}>
          <span className="spinner" /> Loading sessions…
        </p>
      )}
      {current ? (
        <ChatAccess.Provider value={{ canAct: !readOnly }}>
          <Conversation key={current} sessionId={current} models={models.data} />
        </ChatAccess.Provider>
      ) : (
        sessions.isSuccess && (
          <p className={styles.notice}>
            No conversation yet.{" "}
            <button
              type="button"
              className="button primary"
              onClick={() => create.mutate({ workspaceId, agent: "build" })}
            >
              Start one
            </button>
          </p>
        )
      )}
    </section>
  );
}
