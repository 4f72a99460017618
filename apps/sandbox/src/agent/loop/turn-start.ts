import type { Author, Message, Session, Turn } from "@coder/protocol";
import type { SessionRecorder } from "../events/recorder";
import { newId } from "../ids";

/**
 * Commits a person's prompt (or a sub-agent's objective) and the turn that answers it. Both are
 * stored before anything else happens, so a prompt once acknowledged is never lost. `author`: the
 * person who prompted (none for a sub-agent's objective).
 */
export async function startTurn(
  recorder: SessionRecorder,
  session: Session,
  text: string,
  author?: Author,
): Promise<{ message: Message; turn: Turn }> {
  const at = new Date().toISOString();
  const message: Message = {
    id: newId("msg"),
    sessionId: session.id,
    role: "user",
    agent: session.agent,
    model: session.model,
    createdAt: at,
    ...(author ? { author } : {}),
    parts: [],
  };
  const { parts: _, ...info } = message;
  const part = { id: newId("prt"), messageId: message.id, type: "text" as const, text };
  message.parts.push(part);
  const turn: Turn = {
    id: newId("trn"),
    sessionId: session.id,
    userMessageId: message.id,
    assistantMessageId: null,
    status: "running",
    error: null,
    startedAt: at,
    endedAt: null,
  };
  recorder.post({ type: "message.created", message: info });
  recorder.post({ type: "part.updated", part });
  await recorder.emit({ type: "turn.started", turn });
  return { message, turn };
}
