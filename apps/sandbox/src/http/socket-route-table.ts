import type { LspServerConfig } from "@coder/protocol";
import { lspRoute } from "../lsp/lsp-socket";
import type { TerminalDirectory } from "../terminal/terminal-directory";
import { terminalRoute } from "../terminal/terminal-socket";
import type { WorkspaceDriver } from "../workspaces/driver";
import type { SocketRoute } from "./socket-routes";

/** Every WebSocket the service serves. */
export function socketRoutes(
  driver: WorkspaceDriver,
  terminals: TerminalDirectory,
  log: (line: string) => void,
  lspServers: readonly LspServerConfig[],
  collab: SocketRoute,
): SocketRoute[] {
  return [terminalRoute(driver, terminals, log), lspRoute(driver, log, lspServers), collab];
}
