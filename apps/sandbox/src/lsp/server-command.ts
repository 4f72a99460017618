import type { LspServerConfig } from "@coder/protocol";

/** What a missing program exits with from the wrapper below, as a shell would. */
const NOT_INSTALLED_EXIT = 127;

/**
 * The exec command for a server: a shell that exits 127 if the program is not on PATH, so a missing
 * server is told apart from a crash whatever the container runtime reports for a failed exec.
 */
export function serverCommand(server: LspServerConfig): string[] {
  return [
    "sh",
    "-c",
    `command -v "$1" >/dev/null 2>&1 || exit ${NOT_INSTALLED_EXIT}; exec "$@"`,
    "lsp",
    ...server.command,
  ];
}

/** Why the server's process ended, for the socket's close reason. */
export function exitReason(server: LspServerConfig, code: number | null, stderr: string): string {
  const program = server.command[0] as string;
  if (code === NOT_INSTALLED_EXIT) return `${program} not installed, run: ${server.install}`;
  const lastLine = stderr.trim().split("\n").pop()?.trim();
  return `${program} exited (${code ?? "killed"})${lastLine ? `: ${lastLine}` : ""}`;
}
