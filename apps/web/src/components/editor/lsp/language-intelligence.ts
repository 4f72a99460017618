import { setDiagnostics } from "@codemirror/lint";
import { type LSPClient, languageServerExtensions } from "@codemirror/lsp-client";
import { Compartment, type Extension, type StateEffect } from "@codemirror/state";
import { DEFAULT_LSP_SERVERS, type LspServerConfig } from "@coder/protocol";
import type { Diagnostic } from "vscode-languageserver-types";
import { definitionClick } from "./definition-click";
import { pathForUri, uriForPath } from "./document-uri";
import type { EditorHost } from "./editor-host";
import type { EditorWorkspace } from "./editor-workspace";
import { sanitizeHtml } from "./html-sanitizer";
import { type ConnectionStatus, LanguageConnection } from "./language-connection";
import { lspUrl, type OpenLspSocket, openBrowserLspSocket } from "./lsp-socket";
import { editorDiagnostics, type Problem, problemsOf } from "./problems";
import { type FileServer, serverForFile } from "./server-for-file";

/** The `textDocument/publishDiagnostics` notification's parameters. */
interface PublishDiagnosticsParams {
  uri: string;
  version?: number | null;
  diagnostics: Diagnostic[];
}

export interface IntelligenceSnapshot {
  /** By language, for the languages whose files have been opened. */
  statuses: Readonly<Record<string, ConnectionStatus>>;
  /** Of every open file, in the order the files were first reported. */
  problems: readonly Problem[];
}

export interface IntelligenceOptions {
  workspaceId: string;
  openSocket?: OpenLspSocket;
  /** Where the service is; the page's own location in the browser. */
  location?: Pick<Location, "protocol" | "host">;
}

/** Requests wait this long; starting a server in the container can take a few seconds. */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * Language servers for one workspace's editor: one connection per language, shared by the tabs
 * of that language and opened when the first such file is. It gives each file's editor state its
 * LSP extensions (hover, completion, signature help, go-to-definition, rename, diagnostics), and
 * keeps the connection states and the problems list for the UI.
 */
export class LanguageIntelligence {
  private readonly connections = new Map<string, LanguageConnection>();
  private readonly problems = new Map<string, Problem[]>();
  private readonly compartment = new Compartment();
  private readonly listeners = new Set<() => void>();
  private current: IntelligenceSnapshot = { statuses: {}, problems: [] };
  private host: EditorHost | null = null;
  /** The service's server table (its defaults until the service's answer arrives). */
  private servers: readonly LspServerConfig[] = DEFAULT_LSP_SERVERS;

  constructor(private readonly options: IntelligenceOptions) {}

  /** The language servers the service runs (it may be configured with more than the defaults). */
  setServers(servers: readonly LspServerConfig[]): void {
    this.servers = servers;
  }

  /** Connects to the editor whose files it serves. */
  bind(host: EditorHost): void {
    this.host = host;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): IntelligenceSnapshot => this.current;

  /** The extension for a newly opened file's state; nothing for a file without a server. */
  extension(path: string): Extension {
    return this.compartment.of(this.support(path));
  }

  /** The file's tab closed: its server forgets it and its problems go. */
  closed(path: string): void {
    for (const connection of this.connections.values()) connection.workspace.forget(path);
    if (this.problems.delete(path)) this.publish();
  }

  /** The effect that points a renamed file's state at its new name (and server). */
  renamed(from: string, to: string): StateEffect<unknown> {
    this.closed(from);
    return this.compartment.reconfigure(this.support(to));
  }

  retry(language: string): void {
    this.connections.get(language)?.retry();
  }

  dispose(): void {
    for (const connection of this.connections.values()) connection.dispose();
    this.connections.clear();
  }

  private support(path: string): Extension {
    const server = serverForFile(path, this.servers);
    if (!server || !this.host) return [];
    return this.connectionFor(server, this.host).client.plugin(uriForPath(path), server.languageId);
  }

  private connectionFor(server: FileServer, host: EditorHost): LanguageConnection {
    const existing = this.connections.get(server.language);
    if (existing) return existing;
    const connection = new LanguageConnection({
      language: server.language,
      url: lspUrl(this.options.location ?? window.location, this.options.workspaceId, server.language),
      install: server.install,
      host,
      openSocket: this.options.openSocket ?? openBrowserLspSocket,
      client: {
        rootUri: "file:///workspace",
        timeout: REQUEST_TIMEOUT_MS,
        sanitizeHTML: sanitizeHtml,
        extensions: [...languageServerExtensions(), definitionClick],
        notificationHandlers: {
          "textDocument/publishDiagnostics": (client, params: PublishDiagnosticsParams) => {
            this.diagnose(client, params, host);
            return true;
          },
        },
      },
      onStatus: (status) => {
        this.current = { ...this.current, statuses: { ...this.current.statuses, [status.language]: status } };
        this.notify();
      },
    });
    this.connections.set(server.language, connection);
    return connection;
  }

  /** Puts a file's diagnostics into its state (underlines, even while hidden) and the problems list. */
  private diagnose(client: LSPClient, params: PublishDiagnosticsParams, host: EditorHost): void {
    const path = pathForUri(params.uri);
    const file = path ? (client.workspace as EditorWorkspace).fileAt(path) : undefined;
    const state = path ? host.stateOf(path) : undefined;
    if (!path || !file || !state) return;
    // Diagnostics for an older version than the server now has would point at the wrong text.
    if (params.version != null && params.version !== file.version) return;
    const diagnostics = editorDiagnostics(params.diagnostics, file.doc, state.doc);
    host.transact(path, setDiagnostics(state, diagnostics));
    this.problems.set(path, problemsOf(path, diagnostics, state.doc));
    this.publish();
  }

  private publish(): void {
    this.current = { ...this.current, problems: [...this.problems.values()].flat() };
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
