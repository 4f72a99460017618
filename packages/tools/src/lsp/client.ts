import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { DiagnosticsStore } from "./diagnostics-store";
import { LspNotInstalledError, LspServerError, LspTimeoutError } from "./errors";
import { nonRejectingWriter } from "./safe-writer";
import type { Diagnostic, ServerCapabilities } from "./types";

export interface LspClientOptions {
  /** The server's argv. */
  command: readonly string[];
  /** Absolute path of the workspace root: the server's working folder and root URI. */
  root: string;
  /** The `languageId` of a document opened with this server, by its path. */
  languageIdOf: (file: string) => string;
  /** Bound on the server's start and on each request. */
  requestTimeoutMs: number;
  /** The server table's settings for `initialize`. */
  initializationOptions?: Record<string, unknown>;
}

const STDERR_TAIL_CHARS = 2000;
/** How long a server may take to exit after `shutdown`/`exit` before it is killed. */
const EXIT_GRACE_MS = 2000;

/** Servers still running when this process exits are killed, so none outlives its parent. */
const liveChildren = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;
function track(child: ChildProcessWithoutNullStreams): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const c of liveChildren) c.kill("SIGKILL");
    });
  }
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
}

/**
 * One language server process spoken to over stdio. Documents are kept in sync from disk: each
 * `sync` sends the file's current text (didOpen the first time, a full-text didChange when it
 * changed), so answers always describe the file as it is now.
 */
export class LspClient {
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  readonly exited: Promise<number | null>;
  private dead = false;
  private capabilities: ServerCapabilities = {};
  private readonly documents = new Map<string, { version: number; text: string }>();
  private readonly diagnostics = new DiagnosticsStore();
  /** Pull-diagnostic results per document, for `unchanged` answers. */
  private readonly pulled = new Map<string, { resultId?: string; items: Diagnostic[] }>();
  private syncQueue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly options: LspClientOptions,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: MessageConnection,
    private readonly stderrTail: () => string,
  ) {
    this.exited = new Promise((resolve) => {
      child.once("exit", (code) => {
        this.dead = true;
        connection.dispose();
        resolve(code);
      });
    });
  }

  /** Starts the server and completes the `initialize` handshake. */
  static async start(options: LspClientOptions): Promise<LspClient> {
    const [program, ...args] = options.command as [string, ...string[]];
    const child = spawn(program, args, { cwd: options.root, stdio: ["pipe", "pipe", "pipe"] });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      // Stays attached: a later error (a failed kill) must not go unhandled.
      child.on("error", (error: NodeJS.ErrnoException) => {
        reject(
          error.code === "ENOENT" || error.code === "EACCES" ? new LspNotInstalledError(program) : error,
        );
      });
    });
    track(child);
    // A server that exits mid-write must not crash the process with EPIPE.
    child.stdin.on("error", () => {});
    let tail = "";
    child.stderr.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });

    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      nonRejectingWriter(new StreamMessageWriter(child.stdin)),
    );
    const client = new LspClient(options, child, connection, () => tail);
    connection.onNotification("textDocument/publishDiagnostics", (params: PublishParams) => {
      client.diagnostics.publish(params.uri, params.diagnostics ?? [], params.version ?? undefined);
    });
    // Requests from the server: settings are left at their defaults, registrations accepted.
    connection.onRequest((method, params) =>
      method === "workspace/configuration"
        ? ((params as { items?: unknown[] })?.items ?? []).map(() => null)
        : null,
    );
    connection.listen();

    try {
      await client.initialize();
    } catch (error) {
      client.kill();
      // A wrapper script whose interpreter is missing starts, then exits 127 like a shell would.
      if (child.exitCode === 127) throw new LspNotInstalledError(program);
      throw error;
    }
    return client;
  }

  get alive(): boolean {
    return !this.dead;
  }

  get program(): string {
    return this.options.command[0] as string;
  }

  private get supportsPullDiagnostics(): boolean {
    return (
      this.capabilities.diagnosticProvider !== undefined && this.capabilities.diagnosticProvider !== false
    );
  }

  private async initialize(): Promise<void> {
    const rootUri = pathToFileURL(this.options.root).href;
    const result = await this.request<{ capabilities?: ServerCapabilities }>("initialize", {
      processId: process.pid,
      clientInfo: { name: "coder-tools" },
      ...(this.options.initializationOptions
        ? { initializationOptions: this.options.initializationOptions }
        : {}),
      rootPath: this.options.root,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "workspace" }],
      capabilities: {
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: false },
          publishDiagnostics: { versionSupport: true },
          diagnostic: { dynamicRegistration: false },
          hover: { contentFormat: ["markdown", "plaintext"] },
          definition: { linkSupport: true },
        },
        // No `configuration`: servers then use their defaults at once. bash-language-server, when
        // offered it, asks after `initialized` and drops documents opened before the answer.
        workspace: { workspaceFolders: true },
      },
    });
    this.capabilities = result?.capabilities ?? {};
    await this.notify("initialized", {});
  }

  /**
   * Makes the server's copy of `file` equal to `text`. Calls are serialised so versions stay in
   * order when several tools ask about the same file at once.
   */
  sync(file: string, text: string): Promise<string> {
    const uri = pathToFileURL(file).href;
    const run = this.syncQueue.then(async () => {
      const doc = this.documents.get(uri);
      if (!doc) {
        this.documents.set(uri, { version: 1, text });
        this.diagnostics.expect(uri, 1);
        await this.notify("textDocument/didOpen", {
          textDocument: { uri, languageId: this.options.languageIdOf(file), version: 1, text },
        });
      } else if (doc.text !== text) {
        const version = doc.version + 1;
        this.documents.set(uri, { version, text });
        this.diagnostics.expect(uri, version);
        await this.notify("textDocument/didChange", {
          textDocument: { uri, version },
          contentChanges: [{ text }],
        });
      }
      return uri;
    });
    this.syncQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * The diagnostics of a synced document: pulled when the server offers `textDocument/diagnostic`,
   * otherwise the next report it publishes, waited for up to `timeoutMs`.
   */
  async diagnosticsFor(
    uri: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ diagnostics: Diagnostic[]; fresh: boolean }> {
    if (!this.supportsPullDiagnostics) return this.diagnostics.wait(uri, timeoutMs, signal);
    const previous = this.pulled.get(uri);
    const report = await this.request<PullReport>(
      "textDocument/diagnostic",
      { textDocument: { uri }, ...(previous?.resultId ? { previousResultId: previous.resultId } : {}) },
      signal,
    );
    const items = report.kind === "unchanged" ? (previous?.items ?? []) : (report.items ?? []);
    this.pulled.set(uri, { resultId: report.resultId, items });
    return { diagnostics: items, fresh: true };
  }

  /** Sends a request; fails if the server exits, the bound passes, or `signal` aborts first. */
  async request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    if (this.dead) throw this.exitedError(method);
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort = () => {};
    try {
      return await Promise.race([
        this.connection.sendRequest<T>(method, params, cancel.token).catch(async (error: unknown) => {
          // A broken pipe or a disposed connection means the process is going away: say how it ended.
          if (!isConnectionFailure(error)) throw error;
          await this.exited;
          throw this.exitedError(method);
        }),
        this.exited.then(() => Promise.reject(this.exitedError(method))),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new LspTimeoutError(
                  `${this.program} did not answer ${method} within ${this.options.requestTimeoutMs} ms`,
                ),
              ),
            this.options.requestTimeoutMs,
          );
          onAbort = () => reject(signal?.reason ?? new Error("aborted"));
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } catch (error) {
      cancel.cancel();
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  }

  private async notify(method: string, params: unknown): Promise<void> {
    if (this.dead) throw this.exitedError(method);
    await this.connection.sendNotification(method, params);
  }

  private exitedError(method: string): LspServerError {
    const lastLine = this.stderrTail().trim().split("\n").pop();
    const code = this.child.exitCode ?? this.child.signalCode ?? "unknown";
    return new LspServerError(
      `${this.program} exited (${code}) during ${method}${lastLine ? `: ${lastLine}` : ""}`,
    );
  }

  /** Asks the server to shut down and exit; kills it if it does not within a short grace. */
  async stop(): Promise<void> {
    if (this.dead) return;
    const timer = setTimeout(() => this.kill(), EXIT_GRACE_MS);
    try {
      await this.request("shutdown", null);
      await this.notify("exit", null);
    } catch {
      // It is going away either way: answered or not, the timer ends it.
    }
    await this.exited;
    clearTimeout(timer);
  }

  private kill(): void {
    if (!this.dead) this.child.kill("SIGKILL");
  }
}

/** vscode-jsonrpc's own failures (write, read, disposed, inactive), as opposed to an answer from the server. */
function isConnectionFailure(error: unknown): boolean {
  return (
    error instanceof ResponseError &&
    error.code >= ErrorCodes.MessageWriteError &&
    error.code <= ErrorCodes.ConnectionInactive
  );
}

interface PublishParams {
  uri: string;
  version?: number | null;
  diagnostics?: Diagnostic[];
}

interface PullReport {
  kind: "full" | "unchanged";
  resultId?: string;
  items?: Diagnostic[];
}
