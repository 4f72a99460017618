import type { RequestMessage, ResponseMessage } from "vscode-jsonrpc";

/**
 * Everything a read-only (viewer) language-server connection may send: the handshake, the editor's
 * document sync (it lives in the server's memory, never on disk) and requests that only read.
 * Anything else (rename, code actions, formatting, `workspace/executeCommand`, saves, file events,
 * methods a server invents) is refused: a new method is closed until someone decides it only reads.
 */
const VIEWER_METHODS = new Set([
  "initialize",
  "initialized",
  "shutdown",
  "exit",
  "$/cancelRequest",
  "window/workDoneProgress/cancel",
  "textDocument/didOpen",
  "textDocument/didChange",
  "textDocument/didClose",
  "textDocument/hover",
  "textDocument/completion",
  "completionItem/resolve",
  "textDocument/signatureHelp",
  "textDocument/definition",
  "textDocument/declaration",
  "textDocument/typeDefinition",
  "textDocument/implementation",
  "textDocument/references",
  "textDocument/documentHighlight",
  "textDocument/documentSymbol",
  "workspace/symbol",
  "workspaceSymbol/resolve",
  "textDocument/foldingRange",
  "textDocument/selectionRange",
  "textDocument/documentLink",
  "documentLink/resolve",
  "textDocument/diagnostic",
  "workspace/diagnostic",
  "textDocument/semanticTokens/full",
  "textDocument/semanticTokens/full/delta",
  "textDocument/semanticTokens/range",
  "textDocument/inlayHint",
  "inlayHint/resolve",
  "textDocument/prepareCallHierarchy",
  "callHierarchy/incomingCalls",
  "callHierarchy/outgoingCalls",
  "textDocument/prepareTypeHierarchy",
  "typeHierarchy/supertypes",
  "typeHierarchy/subtypes",
]);

/** Whether a viewer's connection may send a request or notification of `method`. */
export function viewerMayUse(method: string): boolean {
  return VIEWER_METHODS.has(method);
}

/** JSON-RPC's "request failed" (LSP 3.17): the request was valid but is refused. */
const REQUEST_FAILED = -32803;

/** The error answer to a request the service does not pass on, saying why. */
export function refusal(request: RequestMessage, why: string): ResponseMessage {
  return { jsonrpc: "2.0", id: request.id, error: { code: REQUEST_FAILED, message: why } };
}
