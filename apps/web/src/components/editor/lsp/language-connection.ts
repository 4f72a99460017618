import { LSPClient, type LSPClientConfig, type Transport } from "@codemirror/lsp-client";
import { reportAccessEnded } from "../../../lib/auth/access-ended";
import type { EditorHost } from "./editor-host";
import { EditorWorkspace } from "./editor-workspace";
import type { LspSocket, OpenLspSocket } from "./lsp-socket";
import { afterClose, type ConnectionState } from "./reconnect-policy";

export interface ConnectionStatus {
  language: string;
  state: ConnectionState;
  /** The install command when missing; the close reason when reconnecting; why, when revoked. */
  detail: string;
}

export interface ConnectionOptions {
  language: string;
  url: string;
  /** How to install the server, shown when it is missing. */
  install: string;
  host: EditorHost;
  openSocket: OpenLspSocket;
  client: Omit<LSPClientConfig, "workspace">;
  onStatus: (status: ConnectionStatus) => void;
}

/**
 * One language server for the tabs of one language: an LSP client over the service's WebSocket,
 * reconnected with backoff when the server crashes or the connection drops (reconnect-policy.ts).
 * The client and its workspace outlive the sockets, so the editors' plugins stay valid and the
 * open files are opened again on every new server.
 */
export class LanguageConnection {
  readonly client: LSPClient;
  readonly workspace: EditorWorkspace;
  status: ConnectionStatus;
  private socket: LspSocket | null = null;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: ConnectionOptions) {
    let workspace: EditorWorkspace | undefined;
    this.client = new LSPClient({
      ...options.client,
      workspace: (client) => {
        workspace = new EditorWorkspace(client, options.host);
        return workspace;
      },
    });
    this.workspace = workspace as unknown as EditorWorkspace;
    this.status = { language: options.language, state: "connecting", detail: "" };
    this.connect();
  }

  /** Tries again now (after installing a missing server, say). */
  retry(): void {
    if (this.socket) return;
    clearTimeout(this.retryTimer);
    this.failures = 0;
    this.connect();
  }

  dispose(): void {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.client.disconnect();
  }

  private connect(): void {
    this.setStatus("connecting", "");
    const subscribers = new Set<(message: string) => void>();
    const socket = this.options.openSocket(this.options.url, {
      open: () => {
        if (this.socket !== socket) return;
        const transport: Transport = {
          send: (message) => socket.send(message),
          subscribe: (handler) => subscribers.add(handler),
          unsubscribe: (handler) => subscribers.delete(handler),
        };
        this.client.connect(transport);
        this.client.initializing.then(
          () => {
            if (this.socket !== socket) return;
            this.failures = 0;
            this.setStatus("ready", "");
          },
          (error: unknown) => {
            if (this.socket !== socket) return;
            socket.close();
            this.closed(socket, 1011, `initialize failed: ${describe(error)}`);
          },
        );
      },
      message: (message) => {
        for (const handler of subscribers) handler(message);
      },
      close: (code, reason) => this.closed(socket, code, reason),
    });
    this.socket = socket;
  }

  private closed(socket: LspSocket, code: number, reason: string): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.client.disconnect();
    reportAccessEnded(code);
    const next = afterClose(code, reason, ++this.failures);
    this.setStatus(next.state, next.message ?? (next.state === "missing" ? this.options.install : reason));
    if (next.retryInMs === null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, next.retryInMs);
  }

  private setStatus(state: ConnectionState, detail: string): void {
    this.status = { language: this.options.language, state, detail };
    this.options.onStatus(this.status);
  }
}

function describe(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) return String(error.message);
  return String(error);
}
