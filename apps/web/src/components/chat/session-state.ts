import type {
  ApprovalRequest,
  Message,
  Part,
  QuestionRequest,
  Session,
  SessionDetail,
  StoredSessionEvent,
  Todo,
  Turn,
} from "@coder/protocol";

/** What the chat shows of one session, rebuilt from `session.get` and then kept up by its events. */
export interface ChatState {
  session: Session;
  messages: Message[];
  todos: Todo[];
  /** The running turn, if any. */
  running: Turn | null;
  /** Every turn seen, by the id of its user message (the revert/diff actions hang off it). */
  turns: Record<string, Turn>;
  approvals: ApprovalRequest[];
  questions: QuestionRequest[];
  /** The id of the last event applied: anything at or below it was already seen. */
  lastEventId: number;
}

/** `session.get` may also list the session's turns (the snapshot work adds them). */
export type DetailWithTurns = SessionDetail & { turns?: Turn[] };

export function stateFromDetail(detail: DetailWithTurns): ChatState {
  const turns: Record<string, Turn> = {};
  for (const turn of [...(detail.turns ?? []), ...(detail.turn ? [detail.turn] : [])]) {
    turns[turn.userMessageId] = turn;
  }
  return {
    session: detail.session,
    messages: detail.messages,
    todos: detail.todos,
    running: detail.turn,
    turns,
    approvals: detail.pending.approvals,
    questions: detail.pending.questions,
    lastEventId: detail.lastEventId === null ? 0 : Number(detail.lastEventId),
  };
}

const upsertBy = <T extends { id: string }>(list: T[], item: T): T[] =>
  list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];

function mapMessage(state: ChatState, messageId: string, change: (m: Message) => Message): Message[] {
  return state.messages.map((m) => (m.id === messageId ? change(m) : m));
}

function appendDelta(part: Part, delta: string): Part {
  return part.type === "text" || part.type === "reasoning" ? { ...part, text: part.text + delta } : part;
}

function withTurn(state: ChatState, turn: Turn): Record<string, Turn> {
  return { ...state.turns, [turn.userMessageId]: turn };
}

/**
 * Applies one event. Events at or below `lastEventId` were already applied (a replay after a
 * reconnect, or included in `session.get`) and are skipped, so nothing shows twice.
 */
export function applyEvent(state: ChatState, event: StoredSessionEvent): ChatState {
  if (event.id <= state.lastEventId) return state;
  const next = { ...state, lastEventId: event.id };
  switch (event.type) {
    case "session.updated":
      return { ...next, session: event.session };
    case "turn.started":
      return { ...next, running: event.turn, turns: withTurn(state, event.turn) };
    case "turn.finished":
      return {
        ...next,
        running: state.running?.id === event.turn.id ? null : state.running,
        turns: withTurn(state, event.turn),
        // Nothing waits for a person once the turn is over (aborted while asking, say).
        approvals: [],
        questions: [],
      };
    case "message.created":
      if (state.messages.some((m) => m.id === event.message.id)) return next;
      return { ...next, messages: [...state.messages, { ...event.message, parts: [] }] };
    case "part.updated":
      return {
        ...next,
        messages: mapMessage(state, event.part.messageId, (m) => ({
          ...m,
          parts: upsertBy(m.parts, event.part),
        })),
      };
    case "part.delta":
      return {
        ...next,
        messages: mapMessage(state, event.messageId, (m) => ({
          ...m,
          parts: m.parts.map((p) => (p.id === event.partId ? appendDelta(p, event.delta) : p)),
        })),
      };
    case "approval.asked":
      return { ...next, approvals: upsertBy(state.approvals, event.request) };
    case "approval.replied":
      return { ...next, approvals: state.approvals.filter((a) => a.id !== event.requestId) };
    case "question.asked":
      return { ...next, questions: upsertBy(state.questions, event.request) };
    case "question.replied":
      return { ...next, questions: state.questions.filter((q) => q.id !== event.requestId) };
    case "todos.updated":
      return { ...next, todos: event.todos };
    default:
      // An event this UI does not know yet (a newer service): counted as seen, shown as nothing.
      return next;
  }
}

/** Tool parts by call id, for the approvals and questions that name a call. */
export function waitingCallIds(state: ChatState): Set<string> {
  return new Set([...state.approvals.map((a) => a.callId), ...state.questions.map((q) => q.callId)]);
}
