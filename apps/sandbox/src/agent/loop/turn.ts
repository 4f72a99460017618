import type {
  AgentName,
  Message,
  Part,
  Session,
  ToolDefinition,
  ToolPart,
  Turn,
  TurnStatus,
} from "@coder/protocol";
import { fail, ToolError, type ToolErrorCode } from "@coder/tools";
import { stepCountIs, streamText, type TextStreamPart, type ToolSet } from "ai";
import { SessionRecorder } from "../events/recorder";
import { newId } from "../ids";
import { describeProviderError, type ProviderFailure } from "../models/errors";
import type { Rule } from "../permissions/rules";
import { systemPrompt } from "../prompt/system-prompt";
import { readWorkspaceContext, type WorkspaceContext } from "../prompt/workspace-context";
import { ChangeTracker } from "../snapshots/change-tracker";
import { recordTurnChanges } from "../snapshots/record-changes";
import type { SessionStore } from "../store/session-store";
import { auditToolCall } from "../tools/audited-call";
import { offeredTools } from "../tools/catalog";
import { dispatch } from "../tools/dispatcher";
import { failureText } from "../tools/local-registry";
import type { Outcome } from "../tools/outcome";
import type { WorkspacePort } from "../workspace/workspace-port";
import { toModelMessages } from "./history";
import { MessageWriter } from "./message-writer";
import { RepeatDetector } from "./repeat-detector";
import { retryingModel } from "./retrying-model";
import { addGrants, agentRules } from "./session-permissions";
import { takesImages } from "./tool-result-output";
import { toolSet } from "./tool-set";
import { startTurn } from "./turn-start";
import type { ResolvedModel, RootScope, RuntimeDeps, TurnState } from "./turn-state";

/** A turn that goes on longer than this is stopped: the agent is not converging. */
export const MAX_STEPS = 200;

/** The abort reason when the service shuts down: the turn is interrupted, not aborted by a person. */
export const SERVICE_STOPPING = "service stopping";

/** What an interrupted turn says happened. */
export const INTERRUPTED = "the service stopped while the agent was working";

export interface TurnInput {
  deps: RuntimeDeps;
  store: SessionStore;
  session: Session;
  turn: Turn;
  /** The conversation so far, ending with the prompt this turn answers. */
  history: Message[];
  model: ResolvedModel;
  recorder: SessionRecorder;
  root: RootScope;
  signal: AbortSignal;
}

export interface TurnOutcome {
  status: TurnStatus;
  error: string | null;
  /** The agent's last text: what a sub-agent hands back. */
  summary: string;
  /** The workspace snapshots around the turn, when it ran a file-changing tool (root sessions). */
  snapshots?: { before: string; after: string };
}

function outcome(code: ToolErrorCode, message: string): Outcome {
  const result = fail(code, message);
  return { result, output: failureText(result) };
}

/** Runs one turn to its end: model steps and the tool calls they make, until the model is done. */
export function runTurn(input: TurnInput): Promise<TurnOutcome> {
  return new TurnRun(input).run();
}

/**
 * One turn: a single `streamText` whose multi-step loop calls the model, runs the tool calls
 * (through `dispatch`, one at a time, in the order the model made them) and calls the model again
 * with the results, until it answers without calls, the person stops it, or it is aborted.
 * Everything that happens is written to the session as parts.
 */
class TurnRun implements TurnState {
  readonly deps: RuntimeDeps;
  session: Session;
  agent: AgentName;
  readonly model: ResolvedModel;
  readonly workspace: WorkspacePort;
  readonly recorder: SessionRecorder;
  readonly message: MessageWriter;
  readonly root: RootScope;
  readonly signal: AbortSignal;
  offered = new Set<string>();
  readonly repeats = new RepeatDetector();
  private toolsFor: AgentName | undefined;
  private context: WorkspaceContext = { skills: [] };
  private egress = false;
  private step = 0;
  /** Set when the person rejected a call without a word: no further step. */
  private stopRequested = false;
  /** Calls run one after another, in the order the model made them. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly calls = new Map<string, ToolPart>();
  private readonly texts = new Map<string, Extract<Part, { type: "text" | "reasoning" }>>();
  /** A person reverts what a session's turn did; a sub-agent's changes belong to its caller's turn. */
  private readonly changes: ChangeTracker | undefined;

  constructor(private readonly input: TurnInput) {
    this.deps = input.deps;
    this.session = input.session;
    this.agent = input.session.agent;
    this.model = input.model;
    this.workspace = input.deps.workspace(input.session.workspaceId);
    this.recorder = input.recorder;
    this.root = input.root;
    this.signal = input.signal;
    this.changes =
      input.session.parentId === null
        ? new ChangeTracker(this.workspace.snapshots, (line) =>
            input.deps.logLine(`turn ${input.turn.id}: ${line}`),
          )
        : undefined;
    this.message = new MessageWriter(input.recorder, {
      id: newId("msg"),
      sessionId: input.session.id,
      role: "assistant",
      agent: this.agent,
      model: input.model.info.id,
      createdAt: new Date().toISOString(),
    });
  }

  rules(): Rule[] {
    return agentRules(this.deps.config.permissions, this.root, this.agent);
  }

  grant(permission: string, patterns: readonly string[]): Promise<void> {
    return addGrants(this.input.store, this.root, this.agent, permission, patterns);
  }

  async switchAgent(agent: AgentName): Promise<void> {
    this.agent = agent;
    this.session = { ...this.session, agent };
    await this.recorder.emit({ type: "session.updated", session: this.session });
  }

  async beforeFileChange(tool: string): Promise<void> {
    await this.changes?.beforeCall(tool);
  }

  async runSubagent(agent: AgentName, objective: string, onSession: (id: string) => void): Promise<string> {
    const child = await this.input.store.create({
      workspaceId: this.session.workspaceId,
      parentId: this.session.id,
      title: objective.split("\n")[0]?.slice(0, 80) ?? agent,
      agent,
      model: this.model.info.id,
    });
    onSession(child.id);
    const recorder = new SessionRecorder(this.deps.events, child.id);
    const { message, turn } = await startTurn(recorder, child, objective);
    const result = await runTurn({ ...this.input, session: child, turn, history: [message], recorder });
    if (result.status === "aborted") throw new ToolError("aborted", `the ${agent} sub-agent was stopped`);
    if (result.status !== "done") {
      throw new ToolError(
        "io_error",
        `the ${agent} sub-agent did not finish: ${result.error ?? result.status}`,
      );
    }
    return result.summary || `(the ${agent} sub-agent finished without a summary)`;
  }

  async run(): Promise<TurnOutcome> {
    try {
      await this.recorder.emit({ type: "message.created", message: this.message.info });
      [this.context, this.egress] = await Promise.all([
        readWorkspaceContext(
          this.workspace,
          {
            sessionId: this.session.id,
            callId: newId("prt"),
            agent: this.agent,
            messageId: this.message.info.id,
          },
          this.signal,
        ),
        this.deps.egress(this.session.workspaceId),
      ]);
      const tools = await this.toolSetForTurn();
      const stream = streamText({
        model: retryingModel(this.model.model, {
          baseMs: this.deps.retryBaseMs,
          signal: this.signal,
          onRetry: (attempt, delayMs, failure) =>
            this.message.add({ type: "retry", attempt, delayMs, message: failure.message }),
        }),
        system: this.system(),
        messages: toModelMessages(this.input.history, takesImages(this.model.info)),
        tools,
        activeTools: [...this.offered],
        // The agent can change between steps (plan_exit): its tools and instructions follow.
        prepareStep: async () => {
          await this.refreshTools();
          return { activeTools: [...this.offered], system: this.system() };
        },
        stopWhen: [stepCountIs(MAX_STEPS), () => this.stopRequested],
        abortSignal: this.signal,
        maxRetries: 0,
        onError: () => {},
      });
      let failure: ProviderFailure | undefined;
      let finishReason = "unknown";
      for await (const chunk of stream.fullStream) {
        if (chunk.type === "error") failure = describeProviderError(chunk.error);
        else if (chunk.type === "finish") finishReason = chunk.finishReason;
        else this.record(chunk);
      }
      await this.queue;
      if (this.signal.aborted) return this.finish("aborted");
      if (failure) {
        this.message.add({ type: "error", kind: failure.kind, message: failure.message });
        return this.finish("error", failure.message);
      }
      if (this.stopRequested) return this.finish("rejected");
      if (finishReason === "tool-calls")
        return this.finish("error", `the agent stopped after ${MAX_STEPS} steps`);
      return this.finish("done");
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logLine(`turn ${this.input.turn.id}: ${error instanceof Error ? error.stack : message}`);
      if (!this.signal.aborted) this.message.add({ type: "error", kind: "workspace", message });
      return this.finish(this.signal.aborted ? "aborted" : "error", message);
    }
  }

  /** Turns the stream's chunks into parts of the message. */
  private record(chunk: TextStreamPart<ToolSet>): void {
    switch (chunk.type) {
      case "start-step":
        this.step += 1;
        this.message.add({ type: "step-start", step: this.step });
        return;
      case "finish-step": {
        const u = chunk.usage;
        const usage = Object.fromEntries(
          Object.entries({
            inputTokens: u.inputTokens,
            outputTokens: u.outputTokens,
            reasoningTokens: u.reasoningTokens,
            cachedInputTokens: u.cachedInputTokens,
          }).filter(([, v]) => v !== undefined),
        );
        this.message.add({ type: "step-finish", step: this.step, finishReason: chunk.finishReason, usage });
        return;
      }
      case "text-start":
      case "text-delta":
      case "reasoning-start":
      case "reasoning-delta": {
        const type = chunk.type.startsWith("text") ? "text" : "reasoning";
        const key = `${type}:${this.step}:${chunk.id}`;
        let part = this.texts.get(key);
        if (!part) {
          part = this.message.add({ type, text: "" });
          this.texts.set(key, part);
        }
        if (chunk.type === "text-delta" || chunk.type === "reasoning-delta")
          this.message.appendText(part, chunk.text);
        return;
      }
      case "tool-input-start":
        this.callPart(chunk.id, chunk.toolName);
        return;
      case "tool-call": {
        const part = this.callPart(chunk.toolCallId, chunk.toolName);
        part.input = chunk.input;
        void this.message.update(part);
        return;
      }
      case "tool-error": {
        // The calls the SDK could not use (unknown tool, arguments that are not JSON); the
        // model reads the same error.
        const part = this.callPart(chunk.toolCallId, chunk.toolName);
        if (part.state === "completed" || part.state === "error") return;
        const known = this.offered.has(chunk.toolName);
        const message = chunk.error instanceof Error ? chunk.error.message : String(chunk.error);
        const settled = this.queue.then(() =>
          this.settle(part, outcome(known ? "invalid_args" : "unknown_tool", message)),
        );
        this.queue = settled.catch(() => {});
        return;
      }
    }
  }

  private callPart(callId: string, tool: string): ToolPart {
    let part = this.calls.get(callId);
    if (!part) {
      part = this.message.add({ type: "tool", callId, tool, input: {}, state: "pending" });
      this.calls.set(callId, part);
    }
    return part;
  }

  /** What the SDK runs for each call: queued behind the calls before it. */
  private execute = (tool: string, callId: string, input: unknown): Promise<Outcome> => {
    const run = this.queue.then(async () => {
      const part = this.callPart(callId, tool);
      part.input = input;
      const result = this.signal.aborted
        ? outcome("aborted", "the call was cancelled")
        : this.stopRequested
          ? outcome("rejected", "not run: the person stopped the turn")
          : await dispatch(this, part).catch((error: Error) => {
              this.deps.logLine(`tool ${part.tool} failed in the service: ${error.stack ?? error.message}`);
              return outcome("io_error", `the ${part.tool} call failed: ${error.message}`);
            });
      if (result.endTurn) this.stopRequested = true;
      await this.settle(part, result);
      return result;
    });
    this.queue = run.catch(() => {});
    return run;
  };

  /**
   * Records a call's result. The next model request does not wait for the commit: events are
   * stored in order, so a crash that lost this result also lost everything after it, and
   * nothing is published before it is stored.
   */
  private async settle(part: ToolPart, result: Outcome): Promise<void> {
    part.state = result.result.ok ? "completed" : "error";
    part.result = result.result;
    part.output = result.output;
    auditToolCall(this, part, result);
    await this.message.update(part);
  }

  private system(): string {
    return systemPrompt({ agent: this.agent, date: new Date(), egress: this.egress, ...this.context });
  }

  /** The current agent's tools; asked of the daemon again only when the agent changed. */
  private async refreshTools(): Promise<ToolDefinition[] | undefined> {
    if (this.toolsFor === this.agent) return undefined;
    const definitions = await offeredTools(
      this.workspace,
      this.deps.local,
      this.deps.config,
      this.agent,
      this.model.info.name,
    );
    this.offered = new Set(definitions.map((d) => d.id));
    this.toolsFor = this.agent;
    return definitions;
  }

  /** Every tool the turn may need: the agent's, and build's for a plan that gets approved. */
  private async toolSetForTurn(): Promise<ToolSet> {
    const definitions = (await this.refreshTools()) ?? [];
    if (this.agent === "plan") {
      const build = await offeredTools(
        this.workspace,
        this.deps.local,
        this.deps.config,
        "build",
        this.model.info.name,
      );
      for (const d of build) if (!definitions.some((o) => o.id === d.id)) definitions.push(d);
    }
    return toolSet(definitions, this.execute, takesImages(this.model.info));
  }

  private async finish(status: TurnStatus, error: string | null = null): Promise<TurnOutcome> {
    if (status === "aborted" && this.signal.reason === SERVICE_STOPPING) {
      return this.finish("interrupted", INTERRUPTED);
    }
    for (const part of this.calls.values()) {
      if (part.state !== "completed" && part.state !== "error") {
        await this.settle(part, outcome("aborted", "the call was cancelled")).catch(() => {});
      }
    }
    const snapshots = this.changes
      ? await recordTurnChanges(
          this.deps.db,
          this.recorder,
          this.input.turn.id,
          this.changes,
          this.deps.logLine,
        )
      : undefined;
    const turn: Turn = {
      ...this.input.turn,
      assistantMessageId: this.message.info.id,
      status,
      error,
      endedAt: new Date().toISOString(),
    };
    try {
      await this.recorder.drain();
      await this.recorder.emit({ type: "turn.finished", turn });
    } catch (writeError) {
      this.deps.logLine(`turn ${turn.id}: could not record its end: ${(writeError as Error).message}`);
    }
    const last = this.message.parts.filter((p) => p.type === "text" && p.text.trim()).at(-1);
    return {
      status,
      error,
      summary: last?.type === "text" ? last.text : "",
      ...(snapshots ? { snapshots } : {}),
    };
  }
}
