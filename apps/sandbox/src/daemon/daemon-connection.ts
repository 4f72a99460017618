import {
  DaemonErrorCode,
  type DaemonNotifications,
  type DaemonRequests,
  DEFAULT_LSP_SERVERS,
  type LspServerConfig,
  writeOncePerTick,
} from "@coder/protocol";
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import type { AttachedProcess, WorkspaceDriver } from "../docker/driver";

/**
 * The daemon's command line. Servers configured beyond the defaults go along as its tools config,
 * so the agent's lsp tools use the same table as the editor.
 */
export function daemonCommand(configured: readonly LspServerConfig[]): string[] {
  const command = ["node", "/opt/coder/daemon.mjs", "--root", "/workspace"];
  const same = JSON.stringify(configured) === JSON.stringify(DEFAULT_LSP_SERVERS);
  return same ? command : [...command, "--config", JSON.stringify({ lsp: { servers: configured } })];
}

/** A daemon call failed in a way the caller should show as-is (path refused, not found, ...). */
export class DaemonCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "DaemonCallError";
  }
  get kind(): "forbidden" | "not_found" | "conflict" | "bad_request" | "internal" {
    switch (this.code) {
      case DaemonErrorCode.PathDenied:
        return "forbidden";
      case DaemonErrorCode.NotFound:
        return "not_found";
      case DaemonErrorCode.Conflict:
      case DaemonErrorCode.Exists:
        return "conflict";
      case DaemonErrorCode.IsDirectory:
      case DaemonErrorCode.NotDirectory:
        return "bad_request";
      default:
        return "internal";
    }
  }
}

/** The daemon went away while a request was in flight, or could not be reached. */
export class DaemonUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DaemonUnavailableError";
  }
}

type Handlers = { [M in keyof DaemonNotifications]: (params: DaemonNotifications[M]) => void };

/**
 * One JSON-RPC connection to the daemon of one workspace, over the stdio of a single long-lived
 * `docker exec`. If the stream drops, in-flight requests fail with DaemonUnavailableError (never
 * left hanging) and the next request starts a new daemon.
 */
export class DaemonConnection {
  private current: Promise<{ conn: MessageConnection; proc: AttachedProcess }> | undefined;
  private closed = false;

  constructor(
    private readonly driver: WorkspaceDriver,
    private readonly workspaceId: string,
    private readonly handlers: Handlers,
    private readonly log: (line: string) => void,
    private readonly command: string[],
  ) {}

  /** Connects now if not connected (used to start the file watcher as soon as a workspace runs). */
  async ensure(): Promise<void> {
    await this.connection();
  }

  get connected(): boolean {
    return this.current !== undefined;
  }

  private connection(): Promise<{ conn: MessageConnection; proc: AttachedProcess }> {
    if (this.closed) return Promise.reject(new DaemonUnavailableError("the workspace connection is closed"));
    if (!this.current) {
      const attempt: Promise<{ conn: MessageConnection; proc: AttachedProcess }> = this.connect(() => {
        if (this.current === attempt) this.current = undefined;
      });
      this.current = attempt;
      attempt.catch(() => {
        if (this.current === attempt) this.current = undefined;
      });
    }
    return this.current;
  }

  private async connect(onDrop: () => void): Promise<{ conn: MessageConnection; proc: AttachedProcess }> {
    let proc: AttachedProcess;
    try {
      proc = await this.driver.exec(this.workspaceId, this.command);
    } catch (err) {
      throw new DaemonUnavailableError(`cannot start the workspace daemon: ${(err as Error).message}`);
    }
    const conn = createMessageConnection(
      new StreamMessageReader(proc.stdout),
      new StreamMessageWriter(writeOncePerTick(proc.stdin)),
    );
    let stderrTail = "";
    proc.stderr.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-2000);
      for (const line of chunk.toString().split("\n"))
        if (line.trim()) this.log(`[daemon ${this.workspaceId}] ${line}`);
    });
    for (const [method, handler] of Object.entries(this.handlers)) {
      conn.onNotification(method, handler as (params: unknown) => void);
    }
    const drop = () => {
      onDrop();
      conn.dispose(); // rejects every pending request
      proc.close();
    };
    conn.onClose(drop);
    // A malformed frame is reported, not fatal: the stream ending is what ends the connection.
    conn.onError(([err]) => this.log(`[daemon ${this.workspaceId}] protocol error: ${err.message}`));
    void proc.exited.then(drop);
    conn.listen();
    try {
      await conn.sendRequest("ping", {});
    } catch (err) {
      drop();
      const detail = stderrTail.trim() ? `: ${stderrTail.trim().split("\n").slice(-3).join(" / ")}` : "";
      throw new DaemonUnavailableError(
        `the workspace daemon did not answer (${(err as Error).message})${detail}`,
      );
    }
    return { conn, proc };
  }

  async request<M extends keyof DaemonRequests>(
    method: M,
    params: DaemonRequests[M]["params"],
    signal?: AbortSignal,
  ): Promise<DaemonRequests[M]["result"]> {
    const { conn } = await this.connection();
    const cancel = new CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return (await conn.sendRequest(method, params, cancel.token)) as DaemonRequests[M]["result"];
    } catch (err) {
      if (err instanceof ResponseError && err.code > -32100 && err.code <= -32000) {
        throw new DaemonCallError(err.code, err.message);
      }
      if (err instanceof ResponseError && err.code === -32800)
        throw new DaemonCallError(err.code, "cancelled");
      if (err instanceof ResponseError) throw new DaemonCallError(err.code, err.message);
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
      ({ conn, proc }) => {
        conn.dispose();
        proc.close();
      },
      () => undefined,
    );
  }
}
