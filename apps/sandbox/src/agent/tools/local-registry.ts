import { containerLayout } from "@coder/protocol";
import { createDefaultRegistry, type Registry, type ToolResult, type ToolsConfig } from "@coder/tools";
import type { AgentConfig } from "../config/agent-config";

export function toolsConfig(config: AgentConfig): ToolsConfig {
  return {
    workspaceRoot: containerLayout.workspace,
    experimental: config.experimental,
    webfetch: config.webfetch,
    searchConfigured: config.websearch.apiKey !== undefined,
  };
}

/**
 * The service's registry, of @coder/tools (same validation and formatting as in the workspace):
 * runs the tools whose facts say they run in the service (they need the runtime or a person, or
 * keep their state in the service's database), and says which permission any call needs.
 */
export function createLocalRegistry(config: AgentConfig): Registry {
  return createDefaultRegistry(toolsConfig(config));
}

/** How a failure reads for the model (the same shape as the tools' own errors). */
export function failureText(result: ToolResult): string {
  const error = result.error;
  if (!error) return "Error: the call failed";
  return error.hint
    ? `Error (${error.code}): ${error.message}\nHint: ${error.hint}`
    : `Error (${error.code}): ${error.message}`;
}
