import { LSP_WORKSPACE_PATH, LSP_WORKSPACE_URI } from "@coder/protocol";
import { Message } from "vscode-jsonrpc";

/**
 * One JSON-RPC message from a frame's text, or undefined if it is not one (a batch, a bare value,
 * a wrong version). LSP never batches, so each frame carries exactly one object.
 */
export function parseClientMessage(text: string): Message | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return (value as { jsonrpc?: unknown }).jsonrpc === "2.0" ? (value as Message) : undefined;
}

/**
 * Rewrites what the browser cannot know about the container: `initialize.processId` becomes null
 * (a browser-side or host pid would make the server's parent watchdog kill it), and the root is
 * always the container's /workspace, whatever the client asked for.
 */
export function rewriteClientMessage(message: Message): Message {
  if (!Message.isRequest(message) || message.method !== "initialize") return message;
  const params =
    typeof message.params === "object" && message.params !== null && !Array.isArray(message.params)
      ? message.params
      : {};
  return {
    ...message,
    params: {
      ...params,
      processId: null,
      rootPath: LSP_WORKSPACE_PATH,
      rootUri: LSP_WORKSPACE_URI,
      workspaceFolders: [{ uri: LSP_WORKSPACE_URI, name: "workspace" }],
    },
  } as Message;
}

/** The client's `exit` notification: the server is meant to end, so its exit is not a crash. */
export function isExitNotification(message: Message): boolean {
  return Message.isNotification(message) && message.method === "exit";
}
