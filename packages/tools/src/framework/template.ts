import { containerLayout } from "@coder/protocol";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate";
import type { Tool, ToolsConfig } from "./types";

/** Placeholders every description may use. */
export function sharedVars(config: ToolsConfig): Record<string, string | number> {
  return {
    workspace: config.workspaceRoot ?? containerLayout.workspace,
    maxLines: MAX_OUTPUT_LINES,
    maxBytes: `${MAX_OUTPUT_BYTES / 1024} KB`,
  };
}

/** Fills `${name}` placeholders; unknown names stay as written so a typo is visible, not silent. */
export function renderTemplate(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

export function renderDescription(tool: Tool, config: ToolsConfig): string {
  return renderTemplate(tool.description, { ...sharedVars(config), ...tool.templateVars?.(config) }).trim();
}
