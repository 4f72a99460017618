"use client";

import { TALK_MAX_CHARS, type TalkLine } from "@coder/protocol";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useWorkspaceAccess } from "../access/workspace-access";
import { GuestBadge } from "../presence/GuestBadge";
import styles from "./talk.module.css";
import { useTalk } from "./use-talk";

const NOTICE: Record<Exclude<TalkLine["kind"], "message">, string> = {
  joined: "joined",
  left: "left",
  revoked: "lost access: their link was revoked",
};

/** How close to the bottom (px) still counts as reading the newest line. */
const FOLLOW_SLACK = 40;

/**
 * The people's talk beside the agent's chat: messages of everyone on the workspace and notices of
 * who joined, left or lost access. Text is shown as plain text. The composer is there only for
 * someone who may write now; the owner alone sees the switch for viewers' writing.
 */
export function TalkPanel({ workspaceId }: { workspaceId: string }) {
  const talk = useTalk(workspaceId);
  const { role } = useWorkspaceAccess();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const setting = useMutation(
    trpc.talk.setViewersMayWrite.mutationOptions({
      meta: SHOWN_INLINE,
      onError: () => setAsked(null),
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.talk.list.queryKey({ workspaceId }) }),
    }),
  );
  // The owner's choice shows at once; the stored setting replaces it when the next look brings it.
  const [asked, setAsked] = useState<boolean | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the live setting changes.
  useEffect(() => setAsked(null), [talk.viewersMayWrite]);
  const list = useRef<HTMLOListElement>(null);
  const following = useRef(true);

  // Follows the newest line unless the person scrolled up to read older ones.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when new lines arrive.
  useLayoutEffect(() => {
    const element = list.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [talk.lines]);

  return (
    <section
      className="side-panel"
      data-testid="talk-panel"
      data-ready={talk.lines !== undefined}
      aria-label="People"
    >
      <header className={`panel-header ${styles.header}`}>
        <span className={styles.title}>People</span>
        {role === "owner" && (
          <label className={styles.setting}>
            <input
              type="checkbox"
              data-testid="talk-viewers-may-write"
              checked={asked ?? talk.viewersMayWrite}
              disabled={setting.isPending || talk.lines === undefined}
              onChange={(e) => {
                setAsked(e.target.checked);
                setting.mutate({ workspaceId, viewersMayWrite: e.target.checked });
              }}
            />
            Viewers may write
          </label>
        )}
      </header>
      {(talk.error ?? setting.error) && (
        <p className={styles.error} role="alert">
          {talk.error ?? errorMessage(setting.error)}
        </p>
      )}
      <ol
        ref={list}
        className={styles.lines}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
        }}
      >
        {talk.lines?.length === 0 && <li className={styles.empty}>No messages yet.</li>}
        {talk.lines?.map((line) => (
          <TalkLineView key={line.id} line={line} />
        ))}
      </ol>
      {talk.youMayWrite ? (
        <TalkComposer workspaceId={workspaceId} />
      ) : (
        role === "viewer" &&
        talk.lines !== undefined && (
          <p className={styles.readOnly}>The owner has turned off writing for viewers.</p>
        )
      )}
    </section>
  );
}

function PersonName({ line }: { line: TalkLine }) {
  return (
    <span className={styles.person} data-testid="talk-person">
      {line.mine ? "You" : line.person.name}
      {line.person.guest && !line.mine && <GuestBadge />}
    </span>
  );
}

function TalkLineView({ line }: { line: TalkLine }) {
  const time = new Date(line.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (line.kind !== "message") {
    return (
      <li className={styles.notice} data-testid="talk-line" data-kind={line.kind}>
        <PersonName line={line} /> {NOTICE[line.kind]} <time dateTime={line.at}>{time}</time>
      </li>
    );
  }
  return (
    <li className={styles.message} data-testid="talk-line" data-kind="message" data-mine={line.mine}>
      <div className={styles.meta}>
        <PersonName line={line} />
        <time dateTime={line.at}>{time}</time>
      </div>
      {/* Plain text: React escapes it, and CSS keeps its line breaks. */}
      <p className={styles.text}>{line.text}</p>
    </li>
  );
}

/** Enter sends, Shift+Enter is a new line. */
function TalkComposer({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const queryClient = useQueryClient();
  const send = useMutation(
    trpc.talk.send.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => {
        setText("");
        // The sender sees their line at once, not at the next look.
        void queryClient.invalidateQueries({ queryKey: trpc.talk.list.queryKey({ workspaceId }) });
      },
    }),
  );
  const canSend = !send.isPending && text.trim() !== "";
  const submit = () => {
    if (canSend) send.mutate({ workspaceId, text });
  };
  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {send.error && (
        <p className={styles.error} role="alert" data-testid="talk-error">
          {errorMessage(send.error)}
        </p>
      )}
      <div className={styles.row}>
        <textarea
          data-testid="talk-input"
          className={styles.input}
          rows={1}
          maxLength={TALK_MAX_CHARS}
          placeholder="Message the people here…"
          aria-label="Message the people in this workspace"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <button type="submit" className="button primary" data-testid="talk-send" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
