import type { ToolsConfig } from "../framework/types";
import { findExecutable } from "./executable";
import { lspSettings } from "./settings";

export interface ServerCheck {
  language: string;
  program: string;
  installed: boolean;
}

/**
 * Checks once, at start, that each configured server is on PATH. A missing one gets a single log
 * line saying how to install it; nothing waits on it and the tools answer `not_installed` later.
 */
export async function checkServers(
  log: (line: string) => void,
  config: ToolsConfig = {},
): Promise<ServerCheck[]> {
  const checks = await Promise.all(
    lspSettings(config).servers.map(async (server) => {
      const program = server.command[0] as string;
      return {
        server,
        check: { language: server.language, program, installed: !!(await findExecutable(program)) },
      };
    }),
  );
  for (const { server, check } of checks) {
    if (!check.installed)
      log(`[LSP] ${check.language}: ${check.program} not installed, run: ${server.install}`);
  }
  return checks.map(({ check }) => check);
}
