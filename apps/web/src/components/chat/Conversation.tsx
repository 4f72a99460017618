"use client";

import type { ModelList, TurnSummary } from "@coder/protocol";
import { useEffect, useRef } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useCanEdit } from "../access/workspace-access";
import { ApprovalPrompt } from "./ApprovalPrompt";
import { Composer } from "./Composer";
import styles from "./chat.module.css";
import { MessageView } from "./MessageView";
import { QuestionPrompt } from "./QuestionPrompt";
import { SessionSettings } from "./SessionSettings";
import { SubagentView } from "./SubagentView";
import type { ChatState } from "./session-state";
import { SubagentSlot } from "./subagent-slot";
import { TodoList } from "./TodoList";
import { TurnActions } from "./TurnActions";
import { useChatSession } from "./use-chat-session";

/** The finished turns, by the message they end at (the answer, or the prompt if none came). */
function turnsByLastMessage(state: ChatState): Map<string, TurnSummary> {
  const map = new Map<string, TurnSummary>();
  for (const turn of Object.values(state.turns)) {
    if (turn.status !== "running") map.set(turn.assistantMessageId ?? turn.userMessageId, turn);
  }
  return map;
}

/** Who wrote the prompt the running turn answers (absent for prompts from before names were kept). */
function prompter(state: ChatState): string | undefined {
  const id = state.running?.userMessageId;
  return state.messages.find((m) => m.id === id)?.author?.name;
}

/** What the agent is doing right now, in a few words. */
function activity(state: ChatState): string {
  if (state.approvals.length || state.questions.length) return "Waiting for you";
  const parts = state.messages.at(-1)?.parts ?? [];
  const tool = parts.findLast((p) => p.type === "tool" && (p.state === "running" || p.state === "pending"));
  return tool?.type === "tool" ? `Running ${tool.tool}…` : "Working…";
}

export function Conversation({ sessionId, models }: { sessionId: string; models: ModelList | undefined }) {
  const { state, loadError, streamError } = useChatSession(sessionId);
  const canPrompt = useCanEdit();
  const list = useRef<HTMLDivElement>(null);
  // Whether the view is at the bottom: only then does it follow new output (reading back stays put).
  const following = useRef(true);
  const size = state ? state.lastEventId : 0;
  useEffect(() => {
    const el = list.current;
    if (size && el && following.current) el.scrollTop = el.scrollHeight;
  }, [size]);

  if (loadError) {
    return (
      <p className={styles.notice} role="alert">
        Could not load the session: {errorMessage(loadError)}
      </p>
    );
  }
  if (!state) {
    return (
      <p className={styles.notice}>
        <span className="spinner" /> Loading the session…
      </p>
    );
  }
  const endings = turnsByLastMessage(state);
  const noModel = models !== undefined && models.models.length === 0;
  return (
    <SubagentSlot.Provider value={SubagentView}>
      <SessionSettings
        session={state.session}
        models={models}
        disabled={state.running !== null}
        canChange={canPrompt}
      />
      {state.todos.length > 0 && <TodoList todos={state.todos} />}
      <div
        ref={list}
        className={styles.messages}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {state.messages.length === 0 && (
          <p className={styles.notice}>Ask the agent to read, change or run something in this workspace.</p>
        )}
        {state.messages.map((message) => {
          const turn = endings.get(message.id);
          return (
            <div key={message.id}>
              <MessageView message={message} />
              {turn?.error && (
                <div className={styles.toolError} role="alert">
                  {turn.error}
                </div>
              )}
              {turn && (
                <TurnActions
                  workspaceId={state.session.workspaceId}
                  turn={turn}
                  verification={state.verifications[turn.id]}
                />
              )}
            </div>
          );
        })}
        {state.approvals.map((request) => (
          <ApprovalPrompt key={request.id} request={request} />
        ))}
        {state.questions.map((request) => (
          <QuestionPrompt key={request.id} request={request} />
        ))}
        {state.running && (
          <output className={styles.activity} data-testid="turn-running">
            <span className="spinner" /> {activity(state)}
            {prompter(state) && (
              <span className={styles.prompter} data-testid="turn-prompter">
                {" "}
                for {prompter(state)}
              </span>
            )}
          </output>
        )}
        {streamError && (
          <div className={styles.toolError} role="alert">
            Live updates interrupted ({streamError}); reconnecting…
          </div>
        )}
      </div>
      {noModel && <p className={styles.setupHint}>{models.setupHint ?? "No model is configured."}</p>}
      {canPrompt ? (
        <Composer sessionId={sessionId} running={state.running !== null} disabled={noModel} />
      ) : (
        <p className={styles.setupHint} data-testid="chat-view-only">
          You are viewing: only the owner and editors can prompt the agent.
        </p>
      )}
    </SubagentSlot.Provider>
  );
}
