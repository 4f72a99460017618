import type { LspServerConfig } from "@coder/protocol";
import { lspRoute } from "../lsp/lsp-socket";
import { terminalRoute } from "../terminal/terminal-socket";
import type { WorkspaceDriver } from "../workspaces/driver";
import type { SocketRoute } from "./socket-routes";

/** Every WebSocket the service serves (collaboration joins here). */
export function socketRoutes(
  driver: WorkspaceDriver,
  log: (line: string) => void,
  lspServers: readonly LspServerConfig[],
): SocketRoute[] {
  return [terminalRoute(driver, log), lspRoute(driver, log, lspServers)];
}
