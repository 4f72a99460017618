import {
  containerLayout,
  DaemonErrorCode,
  type DaemonMethod,
  type DaemonNotification,
  type DaemonNotifications,
  type DaemonRequest,
  type DaemonRequestParams,
  type DaemonRequestResult,
  type DaemonRequests,
  DEFAULT_LSP_SERVERS,
  daemonMethods,
  daemonNotifications,
  daemonRequests,
  type LspServerConfig,
  writeOncePerTick,
} from "@coder/protocol";
import {
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  type MessageConnection,
  ResponseError,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { BoundedLineLog } from "../container-streams/bounded-line-log";
import { BoundedMessageReader } from "../container-streams/bounded-message-reader";
import { FrameViolation, MAX_FRAME_HEADER_BYTES } from "../container-streams/frame-decoder";
import { unfailingWrites } from "../container-streams/unfailing-writes";
import type { AttachedProcess, WorkspaceDriver } from "../driver/workspace-driver";
import { ServiceError, type ServiceErrorKind } from "../errors/service-error";
import type { EventLoopLag } from "../event-loop/event-loop-lag";
import { lagForgivingTimer } from "../event-loop/lag-forgiving-timer";
import { checkAgainst, REFUSED_NOTIFICATION_LOG_LIMITS } from "./contract-check";
import { type DaemonTimeouts, requestTimeoutMs } from "./request-timeout";

/**
 * The daemon's command line. Servers configured beyond the defaults go along as its tools config,
 * so the agent's lsp tools use the same table as the editor.
 */
export function daemonCommand(configured: readonly LspServerConfig[]): string[] {
  const { daemonNode, daemonScript, workspace } = containerLayout;
  const command = [daemonNode, daemonScript, "--root", workspace];
  const same = JSON.stringify(configured) === JSON.stringify(DEFAULT_LSP_SERVERS);
  return same ? command : [...command, "--config", JSON.stringify({ lsp: { servers: configured } })];
}

/** What a daemon's error code means to the service; any other code: the workspace could not do it. */
function kindOfDaemonCode(code: number): ServiceErrorKind {
  switch (code) {
    case DaemonErrorCode.PathDenied:
      return "forbidden";
    case DaemonErrorCode.NotFound:
      return "not_found";
    case DaemonErrorCode.Conflict:
    case DaemonErrorCode.Exists:
      return "conflict";
    case DaemonErrorCode.IsDirectory:
    case DaemonErrorCode.NotDirectory:
    case DaemonErrorCode.BadPattern:
      return "bad_request";
    case DaemonErrorCode.Git:
      return "precondition";
    default:
      return "unavailable";
  }
}

/** A daemon call failed in a way the caller should show as-is (path refused, not found, ...). */
export class DaemonCallError extends ServiceError {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(kindOfDaemonCode(code), message);
  }
}

/**
 * The daemon answered a call with something the contract (packages/protocol/src/daemon.ts) does
 * not allow: that call fails with a plain message; the connection keeps serving the others.
 */
export class MalformedDaemonAnswerError extends DaemonCallError {
  constructor(method: DaemonMethod) {
    super(ErrorCodes.InternalError, `the workspace daemon sent a malformed answer to ${method}`);
    this.name = "MalformedDaemonAnswerError";
  }
}

/** The daemon went away while a request was in flight, or could not be reached. */
export class DaemonUnavailableError extends ServiceError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

/** Who hears the daemon's notifications: only ones the contract allows reach them. */
export type DaemonListeners = { [N in DaemonNotification]: (params: DaemonNotifications[N]) => void } & {
  /** A notification the contract refused (already logged), for listeners that must know one was lost. */
  refused?: (method: DaemonNotification) => void;
  /** Who answers what the daemon asks (packages/protocol daemonRequests); unanswered: refused. */
  answer?: DaemonAnswerers;
};

/** The service's answer to each request a daemon may make of it. */
export type DaemonAnswerers = {
  [R in DaemonRequest]: (params: DaemonRequestParams<R>) => Promise<DaemonRequestResult<R>>;
};

/** How a workspace's daemon is started and how long it may take to answer. */
export interface DaemonOptions {
  command: string[];
  timeouts: DaemonTimeouts;
  /** The service's own lag, which the timeouts do not count against the daemon. */
  lag: EventLoopLag;
}

/**
 * The daemon answers file reads (bounded by `maxBytes`), tool results (bounded by the tools) and
 * snapshot diffs; nothing it legitimately sends comes near this.
 */
export const MAX_DAEMON_MESSAGE_BYTES = 32 * 1024 * 1024;
const STDERR_TAIL_CHARS = 2000;

/**
 * How the first contact with a daemon waits while its workspace is being created or started: past
 * the ping's deadline, on while the container runs (and the daemon lives: its exit fails the ping
 * at once), up to `timeouts.startMs`.
 */
export interface StartPatience {
  /** Whether the workspace's container still runs. */
  stillRunning(): Promise<boolean>;
}

interface Live {
  conn: MessageConnection;
  /** Ends the stream and the exec: in-flight requests fail, the next call reconnects. */
  drop(why?: string): void;
  /** Why the connection was dropped, when the daemon broke the rules. */
  dropReason?: string;
  /** The ping that checks a daemon after one of its requests timed out. */
  probe?: Promise<void>;
  /** The daemon answered its first ping. */
  established?: boolean;
}

function droppedError(why: string): DaemonUnavailableError {
  return new DaemonUnavailableError(`the workspace daemon ${why}; the next call starts it again`);
}

function exitedBeforeAnswering(code: number | null): string {
  return `the workspace daemon exited${code === null ? "" : ` with code ${code}`} before answering`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * The promise, or a DaemonUnavailableError once the daemon was silent for `ms` (calling onTimeout
 * first). Only its own silence counts: the time the service's loop was too far behind to read its
 * answer is forgiven (lagForgivingTimer), or a starved service would call every daemon dead.
 */
function deadline<T>(promise: Promise<T>, ms: number, lag: EventLoopLag, onTimeout?: () => void): Promise<T> {
  let cancel = () => {};
  const expired = new Promise<never>((_, reject) => {
    cancel = lagForgivingTimer(ms, lag, () => {
      onTimeout?.();
      reject(new DaemonUnavailableError(`the workspace daemon did not answer within ${seconds(ms)}`));
    });
  });
  return Promise.race([promise, expired]).finally(cancel);
}

/**
 * One JSON-RPC connection to the daemon of one workspace, over the stdio of a single long-lived
 * exec through the workspace driver. Everything the daemon sends is hostile input: frames are
 * capped and validated (BoundedMessageReader), its stderr is logged within bounds (BoundedLineLog),
 * and every request has a deadline. If the stream drops, breaks the rules or the daemon stops
 * answering, in-flight requests fail with DaemonUnavailableError (never left hanging) and the next
 * request starts a new daemon.
 */
export class DaemonConnection {
  private current: Promise<Live> | undefined;
  private closed = false;
  /** Set while a create or start waits for this daemon: its first ping waits longer (StartPatience). */
  private starting: StartPatience | undefined;

  constructor(
    private readonly driver: WorkspaceDriver,
    private readonly workspaceId: string,
    private readonly listeners: DaemonListeners,
    private readonly log: (line: string) => void,
    private readonly options: DaemonOptions,
    /** An established connection dropped on its own (not by `reset` or `close`): its notifications stop until the next one. */
    private readonly onLost: () => void = () => undefined,
  ) {}

  /**
   * Connects now if not connected (used to start the file watcher as soon as a workspace runs).
   * With `patience`, the workspace has just been created or started: a daemon slow to answer its
   * first ping is waited for (StartPatience), also by a connection already under way.
   */
  async ensure(patience?: StartPatience): Promise<void> {
    if (!patience) {
      await this.connection();
      return;
    }
    this.starting = patience;
    try {
      await this.connection();
    } finally {
      if (this.starting === patience) this.starting = undefined;
    }
  }

  get connected(): boolean {
    return this.current !== undefined;
  }

  /** A create or start is waiting for this daemon's first answer (which may take minutes). */
  get awaitingStart(): boolean {
    return this.starting !== undefined;
  }

  private connection(): Promise<Live> {
    if (this.closed) return Promise.reject(new DaemonUnavailableError("the workspace connection is closed"));
    if (!this.current) {
      const attempt: Promise<Live> = this.connect((established) => {
        if (this.current !== attempt) return;
        this.current = undefined;
        if (established && !this.closed) this.onLost();
      });
      this.current = attempt;
      attempt.catch(() => {
        if (this.current === attempt) this.current = undefined;
      });
    }
    return this.current;
  }

  private async connect(onDrop: (established: boolean) => void): Promise<Live> {
    let proc: AttachedProcess;
    try {
      proc = await this.driver.exec(this.workspaceId, this.options.command);
    } catch (err) {
      throw new DaemonUnavailableError(`cannot start the workspace daemon: ${(err as Error).message}`);
    }
    const tag = `[daemon ${this.workspaceId}]`;
    const conn = createMessageConnection(
      new BoundedMessageReader(proc.stdout, {
        maxHeaderBytes: MAX_FRAME_HEADER_BYTES,
        maxMessageBytes: MAX_DAEMON_MESSAGE_BYTES,
      }),
      new StreamMessageWriter(writeOncePerTick(unfailingWrites(proc.stdin))),
    );
    let stderrTail = "";
    const stderrLog = new BoundedLineLog((line) => this.log(`${tag} ${line}`));
    proc.stderr.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.subarray(-STDERR_TAIL_CHARS).toString()).slice(-STDERR_TAIL_CHARS);
      stderrLog.write(chunk);
    });
    proc.stderr.once("end", () => stderrLog.end());
    this.listen(conn, tag);
    let dropped = false;
    const live: Live = {
      conn,
      drop: (why) => {
        if (dropped) return;
        dropped = true;
        if (why) {
          live.dropReason = why;
          this.log(`${tag} connection dropped: the daemon ${why}`);
        }
        onDrop(live.established === true);
        conn.dispose(); // rejects every pending request
        proc.close();
      },
    };
    conn.onClose(() => live.drop());
    conn.onError(([err]) => {
      if (err instanceof FrameViolation) live.drop(`broke the protocol (${err.message})`);
      else if (!dropped) this.log(`${tag} protocol error: ${err.message}`);
    });
    void proc.exited.then(() => live.drop());
    conn.listen();
    try {
      await this.firstPing(live);
      live.established = true;
    } catch (err) {
      live.drop();
      if (live.dropReason) throw droppedError(live.dropReason);
      const why =
        err instanceof DaemonUnavailableError || err instanceof DaemonCallError
          ? err.message
          : // The connection closed under the ping: the daemon's output ended, it exited.
            exitedBeforeAnswering(await proc.exited);
      const detail = stderrTail.trim() ? `: ${stderrTail.trim().split("\n").slice(-3).join(" / ")}` : "";
      throw new DaemonUnavailableError(`${why}${detail}`);
    }
    return live;
  }

  /**
   * Every notification is checked against the contract here, once: one that breaks it is dropped
   * and logged (within a rate per method, so a flood cannot fill the log); the daemon's other unknown
   * notifications reach no one.
   */
  private listen(conn: MessageConnection, tag: string): void {
    for (const method of Object.keys(daemonNotifications) as DaemonNotification[]) {
      const listener = this.listeners[method] as (params: unknown) => void;
      const refusals = new BoundedLineLog(
        (line) => this.log(`${tag} ${line}`),
        REFUSED_NOTIFICATION_LOG_LIMITS,
      );
      conn.onNotification(method, (params: unknown) => {
        const checked = checkAgainst(daemonNotifications[method], params);
        if (checked.ok) return listener(checked.value);
        refusals.write(Buffer.from(`refused a malformed ${method} notification (${checked.why})\n`));
        this.listeners.refused?.(method);
      });
    }
    const answer = this.listeners.answer;
    for (const method of Object.keys(daemonRequests) as DaemonRequest[]) {
      const refusals = new BoundedLineLog(
        (line) => this.log(`${tag} ${line}`),
        REFUSED_NOTIFICATION_LOG_LIMITS,
      );
      conn.onRequest(method, async (params: unknown) => {
        const checked = checkAgainst(daemonRequests[method].params, params);
        if (!checked.ok) {
          refusals.write(Buffer.from(`refused a malformed ${method} request (${checked.why})\n`));
          return new ResponseError(ErrorCodes.InvalidParams, `${method}: malformed`);
        }
        if (!answer) return new ResponseError(ErrorCodes.MethodNotFound, `the service answers no ${method}`);
        try {
          return await answer[method](checked.value);
        } catch (err) {
          this.log(`${tag} could not answer ${method}: ${(err as Error).message}`);
          return new ResponseError(ErrorCodes.InternalError, `the service could not answer ${method}`);
        }
      });
    }
  }

  /** The daemon's answer to `method`, if the contract allows it; otherwise one log line and a plain error. */
  private checked<M extends DaemonMethod>(method: M, answer: unknown): DaemonRequests[M]["result"] {
    const checked = checkAgainst(daemonMethods[method].result, answer);
    if (checked.ok) return checked.value as DaemonRequests[M]["result"];
    this.log(`[daemon ${this.workspaceId}] refused a malformed answer to ${method} (${checked.why})`);
    throw new MalformedDaemonAnswerError(method);
  }

  private async ping(live: Live): Promise<void> {
    const answer = await deadline(
      live.conn.sendRequest("ping", {}),
      this.options.timeouts.pingMs,
      this.options.lag,
    );
    this.checked("ping", answer);
  }

  /**
   * The ping that opens a connection. Unanswered within its deadline, it fails, unless a create or
   * start is waiting (StartPatience): then the same ping is waited for while the container runs, up
   * to `startMs`. A daemon that exits rejects it at once (the connection is disposed).
   */
  private async firstPing(live: Live): Promise<void> {
    const answer = live.conn.sendRequest("ping", {});
    const began = Date.now();
    for (;;) {
      try {
        this.checked("ping", await deadline(answer, this.options.timeouts.pingMs, this.options.lag));
        return;
      } catch (err) {
        const patience = this.starting;
        if (!(err instanceof DaemonUnavailableError) || !patience || live.dropReason) throw err;
        const waited = Date.now() - began;
        if (waited >= this.options.timeouts.startMs || !(await patience.stillRunning())) {
          throw new DaemonUnavailableError(`the workspace daemon did not answer within ${seconds(waited)}`);
        }
      }
    }
  }

  /** After a request timed out: a daemon that does not answer a ping either is dropped. */
  private checkAlive(live: Live): void {
    live.probe ??= this.ping(live).then(
      () => {
        live.probe = undefined;
      },
      () => live.drop("stopped answering"),
    );
  }

  /**
   * Sends one request of the contract; resolves with the daemon's answer once it is checked
   * against the contract (a malformed one rejects with MalformedDaemonAnswerError).
   */
  async request<M extends DaemonMethod>(
    method: M,
    params: DaemonRequests[M]["params"],
    signal?: AbortSignal,
  ): Promise<DaemonRequests[M]["result"]> {
    return this.checked(method, await this.send(method, params, signal));
  }

  private async send<M extends DaemonMethod>(
    method: M,
    params: DaemonRequests[M]["params"],
    signal?: AbortSignal,
  ): Promise<unknown> {
    const live = await this.connection();
    const cancel = new CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const answer = live.conn.sendRequest(method, params, cancel.token);
      const ms = requestTimeoutMs(method, params, this.options.timeouts);
      return await deadline(answer, ms, this.options.lag, () => {
        cancel.cancel();
        this.checkAlive(live);
      });
    } catch (err) {
      if (err instanceof DaemonUnavailableError) throw err;
      if (err instanceof ResponseError && err.code > -32100 && err.code <= -32000) {
        throw new DaemonCallError(err.code, err.message);
      }
      if (err instanceof ResponseError && err.code === -32800)
        throw new DaemonCallError(err.code, "cancelled");
      if (err instanceof ResponseError) throw new DaemonCallError(err.code, err.message);
      if (live.dropReason) throw droppedError(live.dropReason);
      throw new DaemonUnavailableError(`the workspace daemon connection dropped: ${(err as Error).message}`);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  }

  /** Ends the daemon (the workspace stops or is deleted). */
  close(): void {
    this.closed = true;
    this.reset();
  }

  /** Drops the current stream without closing for good (after a workspace restart). */
  reset(): void {
    const current = this.current;
    this.current = undefined;
    void current?.then(
      (live) => live.drop(),
      () => undefined,
    );
  }
}
