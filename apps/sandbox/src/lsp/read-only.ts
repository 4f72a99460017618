import { Message, type ResponseMessage } from "vscode-jsonrpc";

/**
 * What a read-only (viewer) language-server connection may not ask: requests that make the server
 * change files or compute edits for the client to apply. `workspace/executeCommand` matters most:
 * a server runs its commands inside the container and may write files itself. Everything that
 * reads (hover, completion, definitions, diagnostics) and the editor's document sync
 * notifications pass: they change no file on disk.
 */
const EDIT_METHODS = new Set([
  "workspace/executeCommand",
  "textDocument/rename",
  "textDocument/prepareRename",
  "textDocument/codeAction",
  "codeAction/resolve",
  "textDocument/formatting",
  "textDocument/rangeFormatting",
  "textDocument/rangesFormatting",
  "textDocument/onTypeFormatting",
  "workspace/willCreateFiles",
  "workspace/willRenameFiles",
  "workspace/willDeleteFiles",
]);

/** JSON-RPC's "request failed" (LSP 3.17): the request was valid but is refused. */
const REQUEST_FAILED = -32803;

/** The answer to a request a read-only connection may not make; undefined when it may make it. */
export function readOnlyRefusal(message: Message): ResponseMessage | undefined {
  if (!Message.isRequest(message) || !EDIT_METHODS.has(message.method)) return undefined;
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: { code: REQUEST_FAILED, message: `read-only: a viewer cannot use ${message.method}` },
  };
}
