import { LSP_WORKSPACE_PATH, LSP_WORKSPACE_URI } from "@coder/protocol";
import { Message } from "vscode-jsonrpc";
import { z } from "zod";

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
 * What of `initialize` a browser may choose: what its editor can do and how it names itself. A
 * field that does not fit is left out, and every other field (`initializationOptions` among them:
 * service-configuration.ts) never reaches the server from the browser.
 */
const browserInitializeParams = z
  .object({
    capabilities: z.record(z.string(), z.unknown()).catch({}),
    clientInfo: z
      .object({ name: z.string().max(200), version: z.string().max(200).optional() })
      .optional()
      .catch(undefined),
    locale: z.string().max(64).optional().catch(undefined),
    trace: z.enum(["off", "messages", "verbose"]).optional().catch(undefined),
  })
  .catch({ capabilities: {} });

/**
 * Rebuilds `initialize` from what the browser may choose (above) and what the service decides:
 * `processId` is null (a browser-side or host pid would make the server's parent watchdog kill
 * it), the root is always the container's /workspace, whatever the client asked for, and the
 * initialization options are the server table's (`serviceOptions`), if any.
 */
export function rewriteClientMessage(message: Message, serviceOptions?: Record<string, unknown>): Message {
  if (!Message.isRequest(message) || message.method !== "initialize") return message;
  return {
    jsonrpc: "2.0",
    id: message.id,
    method: "initialize",
    params: {
      ...browserInitializeParams.parse(message.params),
      ...(serviceOptions ? { initializationOptions: serviceOptions } : {}),
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
