import type {
  AnswerInput,
  Author,
  CreateSessionInput,
  ModelList,
  PromptInput,
  RespondInput,
  Session,
  SessionDetail,
  StoredSessionEvent,
  TurnDiff,
  TurnRef,
  UpdateSessionInput,
} from "@coder/protocol";
import type { AuditActor, RecordAudit } from "../audit/audit-entry";
import type { ServiceInstance } from "../cluster/service-instance";
import type { Db } from "../db/database";
import type { LiveBus } from "../events/live-bus";
import { noticeWakeups } from "../events/notice-wakeups";
import type { PageBrowser } from "./browser/page-browser";
import type { AgentConfig } from "./config/agent-config";
import { AgentError } from "./errors";
import { EventLog } from "./events/event-log";
import { SessionRecorder } from "./events/recorder";
import { PendingRequests } from "./interaction/pending-requests";
import type { ProviderModel } from "./loop/retrying-model";
import { INTERRUPTED, SERVICE_STOPPING } from "./loop/turn";
import { startTurn } from "./loop/turn-start";
import type { RuntimeDeps } from "./loop/turn-state";
import { ModelCatalog } from "./models/catalog";
import { bashParser } from "./permissions/bash-grammar";
import type { AgentPresence } from "./presence/agent-presence";
import { type TurnOrigin, turnOrigin } from "./snapshots/turn-origin";
import { type RevertResult, TurnChanges } from "./snapshots/turn-revert";
import { turnSummaries } from "./snapshots/turn-summaries";
import { SessionStore } from "./store/session-store";
import { createLocalRegistry } from "./tools/local-registry";
import { loadTodos } from "./tools/todos";
import { runVerifiedTurns } from "./verify/verified-turns";
import type { AddressPolicy } from "./web/address-policy";
import type { DnsLookup } from "./web/guarded-lookup";
import { boundedWorkspace } from "./workspace/bounded-workspace";
import type { WorkspacePort } from "./workspace/workspace-port";

export interface AgentServiceOptions {
  db: Db;
  /** Where committed changes are announced to every instance on the database. */
  bus: LiveBus;
  /** This service process: it owns the turns it runs. */
  instance: ServiceInstance;
  config: AgentConfig;
  workspace(workspaceId: string): WorkspacePort;
  /** The workspace's facts the agent needs; throws when it does not exist. */
  workspaceInfo(workspaceId: string): Promise<{ egress: boolean }>;
  log?: (line: string) => void;
  /** First wait before retrying a failed model call (default 2 s; tests shorten it). */
  retryBaseMs?: number;
  web?: { policy?: AddressPolicy; resolve?: DnsLookup };
  /** Where running turns show with the people on the workspace. */
  presence?: AgentPresence;
  /** The audit trail, for the tool calls turns make on a person's behalf. */
  audit?: RecordAudit;
  /** Loads pages a workspace serves, for the `preview` tool. */
  browser?: Pick<PageBrowser, "load">;
}

const DEFAULT_TITLE = "New session";
const TITLE_LENGTH = 60;

function titleFrom(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line || DEFAULT_TITLE;
}

/**
 * Agent sessions: what the `session.*` and `models.*` procedures call. A prompt is committed and
 * its turn started in the background; the turn's events are stored and published as it runs; one
 * turn at a time per session.
 */
export class AgentService {
  readonly events: EventLog;
  readonly store: SessionStore;
  private readonly pending: PendingRequests;
  private readonly models: ModelCatalog;
  private readonly deps: RuntimeDeps;
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void>; workspaceId: string }
  >();
  private readonly turnChanges: TurnChanges;
  /** Sessions whose files are being reverted (or restored) right now. */
  private readonly reverting = new Set<string>();
  private reaper: NodeJS.Timeout | undefined;

  constructor(private readonly options: AgentServiceOptions) {
    const log = options.log ?? (() => {});
    this.events = new EventLog(options.db, options.bus, options.instance.id);
    this.pending = new PendingRequests(options.db, options.bus, log);
    // A stop asked for on another instance, for a turn that runs here.
    options.bus.listen("abort", ({ key }) => {
      if (key) this.running.get(key)?.controller.abort();
    });
    this.store = new SessionStore(options.db);
    this.models = new ModelCatalog(options.config, log);
    this.deps = {
      db: options.db,
      events: this.events,
      config: options.config,
      pending: this.pending,
      local: createLocalRegistry(options.config),
      // Whatever a daemon answers is checked and bounded before it is stored or sent to the model.
      workspace: (id) => boundedWorkspace(options.workspace(id), log),
      egress: async (id) => (await options.workspaceInfo(id)).egress,
      retryBaseMs: options.retryBaseMs ?? 2000,
      ...(options.web ? { web: options.web } : {}),
      ...(options.presence ? { presence: options.presence } : {}),
      ...(options.audit ? { audit: options.audit } : {}),
      ...(options.browser ? { browser: options.browser } : {}),
      logLine: log,
    };
    this.turnChanges = new TurnChanges(
      options.db,
      this.events,
      async (sessionId) => options.workspace((await this.store.get(sessionId)).workspaceId).snapshots,
    );
  }

  /**
   * Loads the shell grammar bash permissions are judged with (so a broken install fails the start,
   * not a call), and marks the turns of instances that are gone (a killed service, this one's
   * earlier run) as interrupted; with other instances on the database it keeps looking for them.
   */
  async init(): Promise<void> {
    await bashParser();
    await this.interruptOrphanedTurns();
    const { instance } = this.options;
    if (!instance.shared) return;
    this.reaper = setInterval(() => {
      this.interruptOrphanedTurns().catch((error: Error) =>
        this.deps.logLine(`looking for turns of stopped instances: ${error.message}`),
      );
    }, instance.timing.beatMs);
    this.reaper.unref();
  }

  /** Ends, as interrupted, the running turns whose instance is gone. */
  private async interruptOrphanedTurns(): Promise<void> {
    const { instance } = this.options;
    const live = await instance.live();
    for (const turn of await this.store.runningTurns()) {
      if (turn.instanceId !== null && live.has(turn.instanceId)) continue;
      // Only one instance takes a turn over, whichever gets here first.
      if (!(await this.store.takeOverTurn(turn.id, turn.instanceId, instance.id))) continue;
      const recorder = new SessionRecorder(this.events, turn.sessionId);
      const messages = await this.store.messages(turn.sessionId);
      const prompt = messages.findIndex((m) => m.id === turn.userMessageId);
      const answer = messages.slice(prompt + 1).find((m) => m.role === "assistant");
      for (const part of answer?.parts ?? []) {
        if (part.type !== "tool" || part.state === "completed" || part.state === "error") continue;
        const result = {
          ok: false,
          error: { code: "aborted" as const, message: "interrupted: the service stopped" },
        };
        recorder.post({
          type: "part.updated",
          part: { ...part, state: "error", result, output: `Error (aborted): ${result.error.message}` },
        });
      }
      const { instanceId: _, ...ended } = turn;
      const { workspaceId } = await this.store.get(turn.sessionId);
      await recorder.emit({
        type: "turn.finished",
        turn: {
          ...ended,
          assistantMessageId: answer?.id ?? null,
          status: "interrupted",
          error: INTERRUPTED,
          endedAt: new Date().toISOString(),
        },
      });
      this.announceList(workspaceId);
    }
  }

  /** Stops every running turn (the service is shutting down). */
  async close(): Promise<void> {
    clearInterval(this.reaper);
    const done = [...this.running.values()].map((r) => {
      r.controller.abort(SERVICE_STOPPING);
      return r.done;
    });
    await Promise.allSettled(done);
  }

  listModels(): Promise<ModelList> {
    return this.models.list();
  }

  /** The workspace a session belongs to (what a call naming the session acts on). */
  async workspaceOf(sessionId: string): Promise<string> {
    return (await this.store.get(sessionId)).workspaceId;
  }

  async list(workspaceId: string): Promise<Session[]> {
    await this.options.workspaceInfo(workspaceId);
    return this.store.list(workspaceId);
  }

  /**
   * The workspace's conversations now and again after each change to them (one made, renamed,
   * deleted, a turn started or ended), on whichever instance it happened; an unchanged list is not
   * sent twice.
   */
  async *watchList(workspaceId: string, signal: AbortSignal): AsyncGenerator<Session[]> {
    await this.options.workspaceInfo(workspaceId);
    let sent = "";
    for await (const _ of noticeWakeups(this.options.bus, "sessions", workspaceId, signal)) {
      const list = await this.store.list(workspaceId);
      const text = JSON.stringify(list);
      if (text === sent) continue;
      sent = text;
      yield list;
    }
  }

  /** Tells the watchers of the workspace's conversations to read them again (the change is committed). */
  private announceList(workspaceId: string): void {
    // A lost notice only leaves a list stale until the next one.
    this.options.bus.notify("sessions", workspaceId).catch(() => {});
  }

  async create(input: CreateSessionInput): Promise<Session> {
    await this.options.workspaceInfo(input.workspaceId);
    const session = await this.store.create({
      workspaceId: input.workspaceId,
      parentId: null,
      title: input.title || DEFAULT_TITLE,
      agent: input.agent,
      model: input.model ?? null,
    });
    this.announceList(session.workspaceId);
    return session;
  }

  async get(sessionId: string): Promise<SessionDetail> {
    // One read transaction: the state and the id of the last event in it agree exactly, so a
    // subscription from that id neither repeats nor misses an event.
    const snapshot = await this.options.db.transaction().execute(async (trx) => {
      const store = new SessionStore(trx);
      return {
        session: await store.get(sessionId),
        lastEventId: await store.lastEventId(sessionId),
        messages: await store.messages(sessionId),
        todos: await loadTodos(trx, sessionId),
        turn: await store.runningTurn(sessionId),
        turns: await turnSummaries(trx, sessionId),
        pending: await this.pending.list(sessionId, trx),
      };
    });
    return {
      ...snapshot,
      lastEventId: snapshot.lastEventId > 0 ? String(snapshot.lastEventId) : null,
    };
  }

  async update(input: UpdateSessionInput): Promise<Session> {
    const current = await this.store.get(input.sessionId);
    if (this.running.has(input.sessionId) && input.agent !== undefined && input.agent !== current.agent) {
      throw new AgentError("busy", "the agent is working; change the agent when the turn is over");
    }
    const session: Session = {
      ...current,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.agent !== undefined ? { agent: input.agent } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
    };
    const stored = await this.events.append(session.id, { type: "session.updated", session });
    this.announceList(session.workspaceId);
    return { ...session, updatedAt: stored.at };
  }

  /** Stops the session's turn (wherever it runs) and deletes the session with its history. */
  async delete(sessionId: string): Promise<void> {
    const { workspaceId } = await this.store.get(sessionId);
    await this.abort(sessionId);
    await this.store.delete(sessionId);
    this.announceList(workspaceId);
  }

  /** Commits the prompt (with who wrote it), starts the turn in the background and returns at once. */
  async prompt(
    input: PromptInput,
    author?: Author,
    promptedBy?: AuditActor,
  ): Promise<{ turnId: string; messageId: string }> {
    let session = await this.store.get(input.sessionId);
    if (session.parentId) throw new AgentError("bad_request", "a sub-agent's session cannot be prompted");
    if (this.running.has(session.id)) {
      throw new AgentError("busy", "the agent is still working on the last prompt; wait for it or abort it");
    }
    if (this.reverting.has(session.id)) throw new AgentError("busy", "a turn is being reverted; try again");
    // Claimed before any await, so two prompts at once cannot both start a turn here (and the
    // database's one-running-turn index keeps two instances from doing it).
    const controller = new AbortController();
    let release: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.running.set(session.id, { controller, done, workspaceId: session.workspaceId });
    let leave: () => void = () => {};
    const finished = () => {
      leave();
      this.running.delete(session.id);
      release();
      // The turn's end (and the title it may have set) is committed by now.
      this.announceList(session.workspaceId);
    };
    try {
      if (await this.store.runningTurn(session.id)) {
        throw new AgentError("busy", "the agent is still working on the last prompt (on another instance)");
      }
      const model = await this.models.resolve(input.model ?? session.model);
      await this.options.workspaceInfo(session.workspaceId);
      const recorder = new SessionRecorder(this.events, session.id);
      const changes = {
        ...(input.agent && input.agent !== session.agent ? { agent: input.agent } : {}),
        ...(input.model && input.model !== session.model ? { model: input.model } : {}),
        ...(session.title === DEFAULT_TITLE ? { title: titleFrom(input.text) } : {}),
      };
      if (Object.keys(changes).length > 0) {
        session = { ...session, ...changes };
        await recorder.emit({ type: "session.updated", session });
      }
      const [history, grants] = await Promise.all([
        this.store.messages(session.id),
        this.store.grants(session.id),
      ]);
      const { message, turn } = await startTurn(recorder, session, input.text, author);
      this.announceList(session.workspaceId);
      const prompter = author?.name ?? null;
      leave = this.deps.presence?.agentArrives(session.workspaceId, session.id, prompter) ?? leave;
      void runVerifiedTurns({
        deps: this.deps,
        store: this.store,
        session,
        turn,
        history: [...history, message],
        model,
        recorder,
        root: { sessionId: session.id, recorder, grants, prompter, promptedBy: promptedBy ?? null },
        signal: controller.signal,
      })
        .catch((error: Error) => this.deps.logLine(`turn ${turn.id} failed: ${error.stack ?? error.message}`))
        .finally(finished);
      return { turnId: turn.id, messageId: message.id };
    } catch (error) {
      finished();
      throw error;
    }
  }

  /** Whether a turn runs in one of the workspace's sessions now (it keeps the workspace in use). */
  turnRunningIn(workspaceId: string): boolean {
    return [...this.running.values()].some((r) => r.workspaceId === workspaceId);
  }

  /** Resolves once the session's prompt is fully handled: its turns and their checks. */
  async idle(sessionId: string): Promise<void> {
    await this.running.get(sessionId)?.done;
  }

  /** What a turn changed in the workspace's files (empty when it changed none). */
  async turnDiff(ref: TurnRef): Promise<TurnDiff> {
    await this.store.get(ref.sessionId);
    return this.turnChanges.diff(ref);
  }

  /** A turn's state, prompt and prompter: what a commit of it is made from (git/turn-commit.ts). */
  turnOrigin(ref: TurnRef): Promise<TurnOrigin> {
    return turnOrigin(this.options.db, ref);
  }

  /** The model a session's turns use, for a short task beside them (a commit message). */
  async sessionModel(sessionId: string): Promise<ProviderModel> {
    return (await this.models.resolve((await this.store.get(sessionId)).model)).model;
  }

  /** Puts the files a turn changed back as they were before it. */
  revertTurn(ref: TurnRef): Promise<RevertResult> {
    return this.changeFiles(ref, () => this.turnChanges.revert(ref));
  }

  /** Brings a reverted turn's changes back. */
  undoRevert(ref: TurnRef): Promise<RevertResult> {
    return this.changeFiles(ref, () => this.turnChanges.undoRevert(ref));
  }

  /** One revert at a time per session, and none while the agent works on its files. */
  private async changeFiles(ref: TurnRef, run: () => Promise<RevertResult>): Promise<RevertResult> {
    await this.store.get(ref.sessionId);
    if (this.running.has(ref.sessionId) || (await this.store.runningTurn(ref.sessionId))) {
      throw new AgentError("busy", "the agent is working; revert when the turn is over (or abort it)");
    }
    if (this.reverting.has(ref.sessionId)) throw new AgentError("busy", "a revert is already running");
    this.reverting.add(ref.sessionId);
    try {
      return await run();
    } finally {
      this.reverting.delete(ref.sessionId);
    }
  }

  /**
   * Stops the running turn: the model stream, the running tool, and any waiting request; resolves
   * once it has ended. A turn that another instance runs is asked to stop through the live bus.
   */
  async abort(sessionId: string): Promise<{ aborted: boolean }> {
    await this.store.get(sessionId);
    const running = this.running.get(sessionId);
    if (running) {
      running.controller.abort();
      await running.done;
      return { aborted: true };
    }
    const elsewhere = await this.store.runningTurn(sessionId);
    if (!elsewhere) return { aborted: false };
    const after = await this.store.lastEventId(sessionId);
    await this.options.bus.notify("abort", sessionId);
    const following = new AbortController();
    for await (const event of this.events.follow(sessionId, after, following.signal)) {
      if (event.type === "turn.finished" && event.turn.id === elsewhere.id) break;
    }
    following.abort();
    return { aborted: true };
  }

  /**
   * Answers an approval, whichever instance runs the turn that asked; the first answer wins, a
   * later one is told whose it was.
   */
  async respond(input: RespondInput, by?: Author): Promise<void> {
    const ok = await this.pending.respond(input.sessionId, input.requestId, {
      reply: input.reply,
      ...(input.message ? { message: input.message } : {}),
      ...(by ? { by } : {}),
    });
    if (!ok) throw await this.notWaiting("approval", input);
  }

  /** Answers a question; the first answer wins, as with approvals. */
  async answer(input: AnswerInput, by?: Author): Promise<void> {
    const ok = await this.pending.answer(input.sessionId, input.requestId, {
      answers: input.answers,
      ...(by ? { by } : {}),
    });
    if (!ok) throw await this.notWaiting("question", input);
  }

  private async notWaiting(
    what: "approval" | "question",
    ref: { sessionId: string; requestId: string },
  ): Promise<AgentError> {
    const answered = await this.pending.answeredBy(ref.sessionId, ref.requestId);
    if (answered) {
      const who = answered.by ? ` by ${answered.by.name}` : "";
      return new AgentError("conflict", `that ${what} was already answered${who}`);
    }
    return new AgentError("not_found", `that ${what} is no longer waiting (the turn ended)`);
  }

  /** The session's events after `lastEventId` (all without it), then live ones. */
  async *follow(
    sessionId: string,
    lastEventId: string | null | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<StoredSessionEvent> {
    await this.store.get(sessionId);
    yield* this.events.follow(sessionId, lastEventId ? Number(lastEventId) : 0, signal);
  }
}
