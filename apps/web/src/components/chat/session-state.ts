import type {
  ApprovalRequest,
  Message,
  Part,
  QuestionRequest,
  Session,
  SessionDetail,
  SessionEvent,
  StoredSessionEvent,
  Todo,
  Turn,
  TurnSummary,
} from "@coder/protocol";

/** What the chat shows of one session, rebuilt from `session.get` and then kept up by its events. */
export interface ChatState {
  session: Session;
  messages: Message[];
  todos: Todo[];
  /** The running turn, if any. */
  running: Turn | null;
  /** Every turn seen, by its id, with whether it changed files and whether that is reverted. */
  turns: Record<string, TurnSummary>;
  /** The latest auto-verify run (or skipped run) of each turn that had one. */
  verifications: Record<string, Verification>;
  approvals: ApprovalRequest[];
  questions: QuestionRequest[];
  /** The id of the last event applied: anything at or below it was already seen. */
  lastEventId: number;
}

export type Verification = Extract<SessionEvent, { type: "verify.finished" | "verify.skipped" }>;

export function stateFromDetail(detail: SessionDetail): ChatState {
  const turns: Record<string, TurnSummary> = {};
  for (const turn of detail.turns) turns[turn.id] = turn;
  return {
    session: detail.session,
    messages: detail.messages,
    todos: detail.todos,
    running: detail.turn,
    turns,
    verifications: {},
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

/** A turn's new status; what it did to files is kept (it arrives in its own events). */
function withTurn(state: ChatState, turn: Turn): Record<string, TurnSummary> {
  const known = state.turns[turn.id];
  const changes = { changedFiles: known?.changedFiles ?? false, reverted: known?.reverted ?? false };
  return { ...state.turns, [turn.id]: { ...turn, ...changes } };
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
    case "turn.changes": {
      const known = state.turns[event.turnId];
      if (!known) return next;
      const { changedFiles, reverted } = event;
      return { ...next, turns: { ...state.turns, [event.turnId]: { ...known, changedFiles, reverted } } };
    }
    case "verify.finished":
    case "verify.skipped": {
      const { id: _id, sessionId: _session, at: _at, ...verification } = event;
      return { ...next, verifications: { ...state.verifications, [event.turnId]: verification } };
    }
    default:
      // An event this UI does not know yet (a newer service): counted as seen, shown as nothing.
      return next;
  }
}
