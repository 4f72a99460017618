import type { ApprovalRequest, ToolPart } from "@coder/protocol";
import { containerLayout } from "@coder/protocol";
import { fail, type PermissionRequest, type SessionState, type ToolContext, ToolError } from "@coder/tools";
import { ServiceError } from "../../errors/service-error";
import { newId } from "../ids";
import { askApproval } from "../interaction/ask-approval";
import { type ApprovalAnswer, RequestCancelled } from "../interaction/pending-requests";
import { REPEAT_LIMIT } from "../loop/repeat-detector";
import type { TurnState } from "../loop/turn-state";
import { decide } from "../permissions/check";
import { fileOfCall } from "../presence/call-file";
import { agentServices } from "./agent-services";
import { failureText, toolsConfig } from "./local-registry";
import type { Outcome } from "./outcome";
import { loadTodos, saveTodos } from "./todos";
import { toolFailureOf } from "./tool-error-codes";

const failed = (code: Parameters<typeof fail>[0], message: string, hint?: string): Outcome => {
  const result = fail(code, message, hint);
  return { result, output: failureText(result) };
};

const aborted = () => failed("aborted", "the call was cancelled");

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Runs one tool call of the model: refuses what the agent may not use, asks the person where the
 * rules say so (and when the same call repeats), then runs it in the service or in the workspace.
 * The call's part follows along: waiting → running → completed/error.
 */
export async function dispatch(turn: TurnState, part: ToolPart): Promise<Outcome> {
  const local = turn.deps.local;
  if (!turn.offered.has(part.tool)) {
    return failed(
      "unknown_tool",
      `the ${turn.agent} agent has no tool named "${part.tool}"`,
      `use one of: ${[...turn.offered].join(", ")}`,
    );
  }
  if (!isRecord(part.input))
    return failed("invalid_args", `the arguments of ${part.tool} must be a JSON object`);
  const args = part.input;

  if (turn.repeats.record(part.tool, args) >= REPEAT_LIMIT) {
    const gate = await authorize(turn, part, {
      permission: "doom_loop",
      patterns: [part.tool],
      title: `${part.tool} was called ${REPEAT_LIMIT} times in a row with the same input; let the agent go on?`,
    });
    if (gate) return gate;
    turn.repeats.reset();
  }

  const request = local.approvalRequest(part.tool, args) ?? {
    permission: part.tool,
    patterns: [],
    title: part.tool,
  };
  part.title = request.title;
  const gate = await authorize(turn, part, request);
  if (gate) return gate;

  await turn.beforeFileChange(part.tool);
  if (turn.signal.aborted) return aborted();
  turn.deps.presence?.agentAt(turn.session.workspaceId, turn.root.sessionId, fileOfCall(part.tool, args));
  part.state = "running";
  void turn.message.update(part);
  if (local.get(part.tool)?.facts.runsIn === "service") return runLocal(turn, part, args);
  return runInWorkspace(turn, part, args);
}

/** Undefined when the call may go ahead; otherwise what the model is told instead. */
async function authorize(
  turn: TurnState,
  part: ToolPart,
  request: PermissionRequest,
): Promise<Outcome | undefined> {
  const decision = await decide(turn.rules(), request);
  if (decision.action === "allow") return undefined;
  if (decision.action === "deny") {
    return failed("permission_denied", decision.reason ?? `${request.permission} is not permitted`);
  }
  const approval: ApprovalRequest = {
    id: newId("req"),
    sessionId: turn.session.id,
    callId: part.callId,
    tool: part.tool,
    permission: request.permission,
    patterns: request.patterns,
    title: request.title,
    always: decision.always,
  };
  part.state = "waiting";
  await turn.message.update(part, true);
  let answer: ApprovalAnswer;
  try {
    answer = await askApproval(turn.deps.pending, turn.root, approval, turn.signal);
  } catch (error) {
    if (error instanceof RequestCancelled) return aborted();
    throw error;
  }
  // Kept on the call, so everyone (and a reload) sees who let it run or stopped it.
  part.approval = { reply: answer.reply, ...(answer.by ? { by: answer.by } : {}) };
  if (answer.reply === "always") await turn.grant(request.permission, decision.always);
  if (answer.reply !== "reject") return undefined;
  if (answer.message) {
    return failed("rejected", `the person rejected this call and said: ${answer.message}`);
  }
  return { ...failed("rejected", "the person rejected this call and stopped the turn"), endTurn: true };
}

/** Shows a running call's progress (the latest state of each field) on its part. */
function progressOf(turn: TurnState, part: ToolPart): (update: Record<string, unknown>) => void {
  return (update) => {
    part.progress = { ...part.progress, ...update };
    void turn.message.update(part);
  };
}

/** A tool of the service's own registry, with the runtime's services plugged in. */
async function runLocal(turn: TurnState, part: ToolPart, args: Record<string, unknown>): Promise<Outcome> {
  const tool = part.tool;
  const todoList = turn.deps.local.get(tool)?.facts.todoList;
  const session: SessionState = { id: turn.session.id, files: new Map(), todos: [] };
  if (todoList) session.todos = await loadTodos(turn.deps.db, turn.session.id);
  const ctx: ToolContext = {
    sessionId: turn.session.id,
    messageId: turn.message.info.id,
    callId: part.id,
    agent: turn.agent,
    workspaceRoot: containerLayout.workspace,
    abort: turn.signal,
    metadata: progressOf(turn, part),
    // Permissions were settled before the call; a tool asking again is refused.
    ask: async (request) => {
      throw new ToolError("permission_denied", `${request.title}: not permitted from inside ${tool}`);
    },
    session,
    // Cut outputs go where the workspace's own tools put theirs, so the model can read them there.
    spillDir: containerLayout.spillDir,
    saveOutput: (callId, text) => saveInWorkspace(turn, callId, text),
    config: toolsConfig(turn.deps.config),
    services: agentServices(turn, part, (call) => dispatch(turn, call)),
  };
  const execution = await turn.deps.local.execute(tool, args, ctx);
  if (todoList === "writes" && execution.result.ok) await saveTodos(turn, session.todos);
  return execution;
}

/** Keeps a service tool's cut output in the workspace; a failure reads plainly (no host detail). */
async function saveInWorkspace(turn: TurnState, callId: string, text: string): Promise<string> {
  try {
    return await turn.workspace.saveOutput(callId, text);
  } catch (error) {
    turn.deps.logLine(`cannot keep the output of ${callId} in the workspace: ${(error as Error).message}`);
    throw new Error("the workspace could not keep it");
  }
}

async function runInWorkspace(
  turn: TurnState,
  part: ToolPart,
  args: Record<string, unknown>,
): Promise<Outcome> {
  try {
    return await turn.workspace.executeTool(
      {
        tool: part.tool,
        args,
        sessionId: turn.session.id,
        callId: part.id,
        agent: turn.agent,
        messageId: turn.message.info.id,
      },
      progressOf(turn, part),
      turn.signal,
      turn.root.prompter,
    );
  } catch (error) {
    if (turn.signal.aborted) return aborted();
    if (!(error instanceof ServiceError)) throw error;
    const { code, hint } = toolFailureOf[error.kind];
    return failed(code, error.message, hint);
  }
}
