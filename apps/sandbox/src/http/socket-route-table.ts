import type { LspServerConfig } from "@coder/protocol";
import { lspRoute } from "../lsp/lsp-socket";
import { terminalRoute } from "../terminal/terminal-socket";
import type { WorkspaceDriver } from "../workspaces/driver";
import type { SocketRoute } from "./socket-routes";

/** Every WebSocket the service serves. */
export function socketRoutes(
  driver: WorkspaceDriver,
  log: (line: string) => void,
  lspServers: readonly LspServerConfig[],
  collab: SocketRoute,
): SocketRoute[] {
  return [terminalRoute(driver, log), lspRoute(driver, log, lspServers), collab];
}
