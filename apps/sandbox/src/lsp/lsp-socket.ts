import {
  DEFAULT_LSP_SERVERS,
  LspCloseCode,
  type LspServerConfig,
  lspLanguage,
  lspServerFor,
  MAX_LSP_MESSAGE_BYTES,
} from "@coder/protocol";
import type { Message } from "vscode-jsonrpc";
import { StreamMessageWriter } from "vscode-jsonrpc/node";
import type { WebSocket } from "ws";
import { BoundedMessageReader } from "../container-streams/bounded-message-reader";
import { FrameViolation, MAX_FRAME_HEADER_BYTES } from "../container-streams/frame-decoder";
import { SocketBridge } from "../container-streams/socket-bridge";
import type { AttachedProcess, WorkspaceDriver } from "../driver/workspace-driver";
import type { SocketRoute } from "../sockets/socket-route";
import { closeReason } from "./close-reason";
import { LspMessageRouter } from "./message-router";
import { isExitNotification, parseClientMessage } from "./rewrite";
import { exitReason, serverCommand } from "./server-command";

const STDERR_TAIL_CHARS = 2000;

/**
 * Bridges one editor WebSocket to a language server inside the workspace: each socket starts its
 * own server with a `docker exec` (no TTY) and JSON-RPC flows both ways, one message per text frame
 * on the socket and Content-Length framing on the server's stdio. `initialize` is rewritten for the
 * container (rewrite.ts). Closing the socket ends the server; the server ending closes the socket
 * with 1011 and why (not installed, exit code and its last stderr line), so the editor reconnects.
 * Every message goes where the router says (message-router.ts): configuration only ever from the
 * service, and from a read-only (viewer) socket only what reads.
 */
export async function serveLsp(
  ws: WebSocket,
  driver: WorkspaceDriver,
  workspaceId: string,
  language: string,
  log: (line: string) => void,
  servers: readonly LspServerConfig[] = DEFAULT_LSP_SERVERS,
  readOnly = false,
): Promise<void> {
  const close = (code: number, reason: string) => {
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, closeReason(reason));
  };
  const server = lspServerFor(servers, language);
  if (!server) {
    const known = servers.map((s) => s.language).join(", ");
    close(LspCloseCode.UnknownLanguage, `no language server for "${language}"; configured: ${known}`);
    return;
  }

  let writer: StreamMessageWriter | undefined;
  const toServer = (message: Message) => {
    writer?.write(message).catch(() => {
      // The server is gone; its exit closes the socket with the reason.
    });
  };
  let exitRequested = false;
  const router = new LspMessageRouter(readOnly, server.initializationOptions);
  const bridge = new SocketBridge<AttachedProcess, Message>(ws, {
    maxEarlyBytes: MAX_LSP_MESSAGE_BYTES,
    deliver: (_proc, message) => toServer(message),
    // `exit` first for servers that wait for it; close() then ends whatever ignores it.
    end: (proc) => {
      void (writer?.write({ jsonrpc: "2.0", method: "exit" } as Message) ?? Promise.resolve())
        .catch(() => undefined)
        .finally(() => proc.close());
    },
    onOverflow: () => close(LspCloseCode.TooBig, "too much sent before the server started"),
  });

  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (isBinary) return close(LspCloseCode.UnsupportedData, "LSP messages must be text frames");
    if (data.length > MAX_LSP_MESSAGE_BYTES) return close(LspCloseCode.TooBig, "message larger than 4 MB");
    const message = parseClientMessage(data.toString("utf8"));
    if (!message) return close(LspCloseCode.InvalidMessage, "each frame must hold one JSON-RPC 2.0 message");
    const route = router.fromBrowser(message);
    if (route.to === "nowhere") return;
    if (route.to === "browser") return ws.send(JSON.stringify(route.message));
    if (isExitNotification(route.message)) exitRequested = true;
    bridge.fromBrowser(route.message, data.length);
  });
  // ws reports protocol errors (an over-long frame: it closes with 1009 itself) here; unhandled, they would throw.
  ws.on("error", (err) => log(`lsp ${workspaceId}/${language}: ${err.message}`));

  let proc: AttachedProcess;
  try {
    proc = await driver.exec(workspaceId, serverCommand(server));
  } catch (err) {
    log(`lsp ${workspaceId}/${language}: ${(err as Error).message}`);
    close(
      LspCloseCode.ServerError,
      `cannot start the ${language} language server: ${(err as Error).message}`,
    );
    return;
  }

  let stderr = "";
  proc.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  // The server's output is hostile input: capped frames, valid JSON-RPC, or the server is ended.
  const reader = new BoundedMessageReader(proc.stdout, {
    maxHeaderBytes: MAX_FRAME_HEADER_BYTES,
    maxMessageBytes: MAX_LSP_MESSAGE_BYTES,
  });
  const running = proc;
  reader.onError((err) => {
    if (ws.readyState !== ws.OPEN) return;
    const why = `the language server broke the protocol: ${err.message}`;
    log(`lsp ${workspaceId}/${language}: ${why}; ending it`);
    const tooBig = err instanceof FrameViolation && err.kind === "too_big";
    close(tooBig ? LspCloseCode.TooBig : LspCloseCode.ServerError, why);
    running.close();
  });
  reader.listen((message) => {
    const route = router.fromServer(message);
    if (route.to === "nowhere") return;
    if (route.to === "server") return toServer(route.message);
    const text = JSON.stringify(route.message);
    if (Buffer.byteLength(text) > MAX_LSP_MESSAGE_BYTES) {
      return close(LspCloseCode.TooBig, "the language server sent a message larger than 4 MB");
    }
    bridge.toBrowser(text);
  });
  writer = new StreamMessageWriter(proc.stdin);
  if (!bridge.started(proc, proc.stdout)) {
    reader.dispose();
    return;
  }

  const code = await proc.exited;
  reader.dispose();
  if (exitRequested) close(LspCloseCode.Normal, "language server stopped");
  else close(LspCloseCode.ServerError, exitReason(server, code, stderr));
}

/** `/lsp/<workspace>/<language>`: a viewer may read (hover, definitions); edits need an editor. */
export function lspRoute(
  driver: WorkspaceDriver,
  log: (line: string) => void,
  servers: readonly LspServerConfig[],
): SocketRoute {
  return {
    prefix: "lsp",
    name: lspLanguage,
    minimumRole: "viewer",
    maxPayload: MAX_LSP_MESSAGE_BYTES,
    serve: (ws, { workspaceId, name }, { readOnly }) =>
      void serveLsp(ws, driver, workspaceId, name, log, servers, readOnly),
  };
}
