import type { RequestMessage, ResponseMessage } from "vscode-jsonrpc";

/**
 * A language server's configuration names programs it runs (pylsp's linter `executable`,
 * bash-language-server's `shellcheckPath`), so it comes from the service alone, for everyone: a
 * browser's `initializationOptions` are not passed on, its `workspace/didChangeConfiguration` is
 * dropped, and the server's `workspace/configuration` requests are answered here. The service's
 * settings are each server's defaults: the server table's initialization options (the operator's;
 * the TypeScript entry sets some), and null ("nothing set") for every configuration item asked for.
 */

/** Notifications a browser may never send: they change what the server runs or where it looks. */
const SERVICE_OWNED_NOTIFICATIONS = new Set([
  "workspace/didChangeConfiguration",
  // The root is always the container's /workspace (rewrite.ts); a browser adds no folders.
  "workspace/didChangeWorkspaceFolders",
]);

export function isServiceOwned(method: string): boolean {
  return SERVICE_OWNED_NOTIFICATIONS.has(method);
}

/** The server asks its client for settings: the service answers instead of the browser. */
export function isConfigurationRequest(request: RequestMessage): boolean {
  return request.method === "workspace/configuration";
}

/** The service's answer to `workspace/configuration`: one null per item asked for. */
export function configurationAnswer(request: RequestMessage): ResponseMessage {
  const items = (request.params as { items?: unknown } | undefined)?.items;
  return { jsonrpc: "2.0", id: request.id, result: Array.isArray(items) ? items.map(() => null) : [] };
}
