import { type LspServerConfig, lspServerList, resolveLspServers } from "@coder/protocol";
import { ToolError, type ToolsConfig } from "../framework/types";

/** The `lsp` section of ToolsConfig. */
export interface LspToolsConfig {
  /** Servers by language, each replacing the default of its language or adding one (defaults: bash, python). */
  servers?: LspServerConfig[];
  /** A server nobody asked anything for this long is stopped (default 5 minutes). */
  idle_timeout_ms?: number;
  /** How long `lsp_diagnostics` waits for the server to report on a file it was just sent (default 5 s). */
  diagnostics_timeout_ms?: number;
  /** How long a hover or definition request may take, and the server's start (default 30 s). */
  request_timeout_ms?: number;
}

declare module "../framework/types" {
  interface ToolsConfig {
    lsp?: LspToolsConfig;
  }
}

export interface LspSettings {
  servers: LspServerConfig[];
  idleTimeoutMs: number;
  diagnosticsTimeoutMs: number;
  requestTimeoutMs: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 5_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** The LSP settings of a deployment, defaults filled in; a malformed server list is a typed error. */
export function lspSettings(config: ToolsConfig): LspSettings {
  const lsp = config.lsp ?? {};
  const parsed = lspServerList.safeParse(lsp.servers ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolError(
      "unavailable",
      `the lsp.servers setting is invalid: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`,
      "fix the tools configuration; until then use grep and read",
    );
  }
  return {
    servers: resolveLspServers(parsed.data),
    idleTimeoutMs: lsp.idle_timeout_ms ?? DEFAULT_IDLE_TIMEOUT_MS,
    diagnosticsTimeoutMs: lsp.diagnostics_timeout_ms ?? DEFAULT_DIAGNOSTICS_TIMEOUT_MS,
    requestTimeoutMs: lsp.request_timeout_ms ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}

/** Placeholders of the lsp_* descriptions; rendered with the defaults if the setting is broken (calls say why). */
export function lspTemplateVars(config: ToolsConfig): Record<string, string | number> {
  let settings: LspSettings;
  try {
    settings = lspSettings(config);
  } catch {
    settings = lspSettings({});
  }
  return {
    languages: describeServers(settings.servers),
    diagnosticsSeconds: settings.diagnosticsTimeoutMs / 1000,
  };
}

/** The file types with a server, e.g. `.sh .bash (bash), .py (python)`. */
export function describeServers(servers: readonly LspServerConfig[]): string {
  return servers.map((s) => `${s.extensions.map((e) => `.${e}`).join(" ")} (${s.language})`).join(", ");
}
