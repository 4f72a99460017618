import type { Message, Part } from "@coder/protocol";
import { GuestBadge } from "../presence/GuestBadge";
import styles from "./chat.module.css";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";

/** One message: the person's prompt as they wrote it (under their name), the agent's parts in order. */
export function MessageView({ message }: { message: Message }) {
  return (
    <div className={styles.message} data-testid="message" data-role={message.role}>
      {message.author && (
        <div className={styles.author}>
          <span data-testid="message-author">{message.author.name}</span>
          {message.author.kind === "guest" && <GuestBadge />}
        </div>
      )}
      {message.parts.map((part) => (
        <PartView key={part.id} part={part} user={message.role === "user"} />
      ))}
    </div>
  );
}

function PartView({ part, user }: { part: Part; user: boolean }) {
  switch (part.type) {
    case "text":
      return user ? <div className={styles.userText}>{part.text}</div> : <Markdown text={part.text} />;
    case "reasoning":
      return (
        <details className={styles.reasoning}>
          <summary>Thinking</summary>
          <div className={styles.reasoningText}>{part.text}</div>
        </details>
      );
    case "tool":
      return <ToolCard part={part} />;
    case "retry":
      return (
        <div className={styles.muted}>
          {part.message}: trying again in {Math.round(part.delayMs / 1000)} s (attempt {part.attempt})
        </div>
      );
    case "error":
      return (
        <div className={styles.toolError} role="alert">
          {part.message}
        </div>
      );
    case "step-start":
    case "step-finish":
      return null;
  }
}
