import type { LspServerConfig } from "@coder/protocol";
import type { AuditLog } from "../audit/audit-log";
import type { WorkspaceDriver } from "../driver/workspace-driver";
import { lspRoute } from "../lsp/lsp-socket";
import type { PageSocketRoute, SocketRoute } from "../sockets/socket-route";
import type { TerminalDirectory } from "../terminal/terminal-directory";
import { terminalRoute } from "../terminal/terminal-socket";
import { type SubscriptionSocketDeps, subscriptionSocketRoute } from "../trpc/subscription-socket";

/** Every WebSocket of a workspace the service serves. */
export function socketRoutes(
  driver: WorkspaceDriver,
  terminals: TerminalDirectory,
  log: (line: string) => void,
  lspServers: readonly LspServerConfig[],
  collab: SocketRoute,
  audit: AuditLog,
): SocketRoute[] {
  return [
    terminalRoute(driver, terminals, log, audit.record.bind(audit)),
    lspRoute(driver, log, lspServers),
    collab,
  ];
}

/** Every WebSocket of a page rather than of one workspace. */
export function pageSocketRoutes(subscriptions: SubscriptionSocketDeps): PageSocketRoute[] {
  return [subscriptionSocketRoute(subscriptions)];
}
