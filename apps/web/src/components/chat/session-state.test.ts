import type { SessionDetail, SessionEvent, StoredSessionEvent, Turn } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { applyEvent, type ChatState, stateFromDetail } from "./session-state";

const at = "2025-01-01T00:00:00.000Z";
const session = {
  id: "ses_00000001",
  workspaceId: "ws_0000001",
  parentId: null,
  title: "New session",
  agent: "build" as const,
  model: null,
  createdAt: at,
  updatedAt: at,
};
const detail: SessionDetail = {
  session,
  messages: [],
  todos: [],
  turn: null,
  turns: [],
  pending: { approvals: [], questions: [] },
  lastEventId: "3",
};
const turn = (status: Turn["status"]): Turn => ({
  id: "turn_0000001",
  sessionId: session.id,
  userMessageId: "msg_user0001",
  assistantMessageId: "msg_asst0001",
  status,
  error: null,
  startedAt: at,
  endedAt: status === "running" ? null : at,
});

let nextId = 4;
const ev = (event: SessionEvent, id = nextId++): StoredSessionEvent => ({
  ...event,
  id,
  sessionId: session.id,
  at,
});

function play(state: ChatState, events: StoredSessionEvent[]): ChatState {
  return events.reduce(applyEvent, state);
}

const assistant = {
  id: "msg_asst0001",
  sessionId: session.id,
  role: "assistant" as const,
  agent: "build" as const,
  model: null,
  createdAt: at,
};
const textPart = { id: "prt_text0001", messageId: assistant.id, type: "text" as const, text: "" };

describe("the chat's event reducer", () => {
  it("builds the streamed answer from its message, part and deltas", () => {
    nextId = 4;
    const state = play(stateFromDetail(detail), [
      ev({ type: "turn.started", turn: turn("running") }),
      ev({ type: "message.created", message: assistant }),
      ev({ type: "part.updated", part: textPart }),
      ev({ type: "part.delta", messageId: assistant.id, partId: textPart.id, delta: "Hello " }),
      ev({ type: "part.delta", messageId: assistant.id, partId: textPart.id, delta: "world" }),
    ]);
    expect(state.running?.id).toBe("turn_0000001");
    expect(state.messages[0]?.parts[0]).toMatchObject({ type: "text", text: "Hello world" });
    expect(state.lastEventId).toBe(8);
  });

  it("skips events it already has, so a replay after a reconnect shows nothing twice", () => {
    nextId = 4;
    const events = [
      ev({ type: "message.created", message: assistant }),
      ev({ type: "part.updated", part: textPart }),
      ev({ type: "part.delta", messageId: assistant.id, partId: textPart.id, delta: "once" }),
    ];
    const once = play(stateFromDetail(detail), events);
    const replayed = play(once, events);
    expect(replayed).toBe(once);
    expect(replayed.messages).toHaveLength(1);
    expect(replayed.messages[0]?.parts[0]).toMatchObject({ text: "once" });
  });

  it("skips the events session.get already included", () => {
    const state = stateFromDetail({ ...detail, lastEventId: "10" });
    const after = applyEvent(state, ev({ type: "todos.updated", todos: [] }, 10));
    expect(after).toBe(state);
  });

  it("starts from no event at all when the session is new", () => {
    const state = stateFromDetail({ ...detail, lastEventId: null });
    expect(state.lastEventId).toBe(0);
    expect(applyEvent(state, ev({ type: "todos.updated", todos: [] }, 1)).lastEventId).toBe(1);
  });

  it("replaces a tool part as its state changes", () => {
    nextId = 4;
    const tool = {
      id: "prt_tool0001",
      messageId: assistant.id,
      type: "tool" as const,
      callId: "c1",
      tool: "bash",
      input: { command: "ls" },
    };
    const state = play(stateFromDetail(detail), [
      ev({ type: "message.created", message: assistant }),
      ev({ type: "part.updated", part: { ...tool, state: "running", progress: { stdout: "a\n" } } }),
      ev({ type: "part.updated", part: { ...tool, state: "completed", result: { ok: true } } }),
    ]);
    expect(state.messages[0]?.parts).toHaveLength(1);
    expect(state.messages[0]?.parts[0]).toMatchObject({ state: "completed" });
  });

  it("shows an approval and a question until they are answered", () => {
    nextId = 4;
    const approval = {
      id: "apr_0000001",
      sessionId: session.id,
      callId: "c1",
      tool: "bash",
      permission: "bash",
      patterns: ["ls"],
      title: "ls",
      always: ["ls *"],
    };
    const question = {
      id: "qst_0000001",
      sessionId: session.id,
      callId: "c2",
      questions: [{ question: "Which?", options: ["a", "b"] }],
    };
    const asked = play(stateFromDetail(detail), [
      ev({ type: "approval.asked", request: approval }),
      ev({ type: "question.asked", request: question }),
    ]);
    expect(asked.approvals).toEqual([approval]);
    expect(asked.questions).toEqual([question]);
    const answered = play(asked, [
      ev({ type: "approval.replied", requestId: approval.id, reply: "once" }),
      ev({ type: "question.replied", requestId: question.id, answers: [["a"]] }),
    ]);
    expect(answered.approvals).toEqual([]);
    expect(answered.questions).toEqual([]);
  });

  it("ends the running turn and forgets what waited for a person when the turn finishes", () => {
    nextId = 4;
    const approval = {
      id: "apr_0000001",
      sessionId: session.id,
      callId: "c1",
      tool: "bash",
      permission: "bash",
      patterns: ["ls"],
      title: "ls",
      always: [],
    };
    const state = play(stateFromDetail(detail), [
      ev({ type: "turn.started", turn: turn("running") }),
      ev({ type: "approval.asked", request: approval }),
      ev({ type: "turn.finished", turn: turn("aborted") }),
    ]);
    expect(state.running).toBeNull();
    expect(state.approvals).toEqual([]);
    expect(state.turns.turn_0000001?.status).toBe("aborted");
  });

  it("keeps whether a turn changed files and is reverted across its status changes", () => {
    nextId = 4;
    const listed = { ...turn("running"), changedFiles: false, reverted: false };
    const state = play(stateFromDetail({ ...detail, turns: [listed] }), [
      ev({ type: "turn.changes", turnId: listed.id, changedFiles: true, reverted: false }),
      ev({ type: "turn.finished", turn: turn("done") }),
      ev({ type: "turn.changes", turnId: listed.id, changedFiles: true, reverted: true }),
    ]);
    expect(state.turns.turn_0000001).toMatchObject({ status: "done", changedFiles: true, reverted: true });
  });

  it("keeps the latest auto-verify run of a turn", () => {
    nextId = 4;
    const verify = {
      type: "verify.finished" as const,
      turnId: "turn_0000001",
      command: "npm test",
      output: "1 failed",
    };
    const state = play(stateFromDetail(detail), [
      ev({ ...verify, attempt: 1, passed: false }),
      ev({ ...verify, attempt: 2, passed: true, output: "ok" }),
    ]);
    expect(state.verifications.turn_0000001).toMatchObject({ attempt: 2, passed: true });
    const skipped = play(state, [
      ev({ type: "verify.skipped", turnId: "turn_0000001", attempt: 3, command: "npm test", reason: "no" }),
    ]);
    expect(skipped.verifications.turn_0000001).toMatchObject({ type: "verify.skipped", reason: "no" });
  });

  it("takes the todo list and the session's new title", () => {
    nextId = 4;
    const todos = [
      { id: "1", content: "write tests", status: "in_progress" as const, priority: "high" as const },
    ];
    const state = play(stateFromDetail(detail), [
      ev({ type: "todos.updated", todos }),
      ev({ type: "session.updated", session: { ...session, title: "Fix the build" } }),
    ]);
    expect(state.todos).toEqual(todos);
    expect(state.session.title).toBe("Fix the build");
  });

  it("counts an event it does not know as seen and changes nothing else", () => {
    const state = stateFromDetail(detail);
    const unknown = {
      type: "turn.reverted",
      id: 20,
      sessionId: session.id,
      at,
    } as unknown as StoredSessionEvent;
    const after = applyEvent(state, unknown);
    expect(after.lastEventId).toBe(20);
    expect(after.messages).toBe(state.messages);
  });
});
