import type { PreviewPort, PreviewVisibility } from "@coder/protocol";
import type { WorkspaceAccess } from "../access/workspace-access";

/**
 * Whether the person may open a port of this visibility: the service lets owners and editors
 * open every port and viewers only those shared with the workspace or public, and the panel
 * shows no Open button that would only be refused.
 */
export function canOpenPort(role: WorkspaceAccess["role"], visibility: PreviewVisibility): boolean {
  return role !== "viewer" || visibility !== "private";
}

/**
 * The ports that started listening between two lists, in port order: what earns a toast. The first
 * list the page sees (`before` undefined) is what already listened, not news.
 */
export function newlyListening(
  before: readonly PreviewPort[] | undefined,
  after: readonly PreviewPort[],
): PreviewPort[] {
  if (!before) return [];
  const known = new Set(before.map((p) => p.port));
  return after.filter((p) => !known.has(p.port)).sort((a, b) => a.port - b.port);
}

/** How a port reads in a sentence: "5173 (node)", or "5173" when the process is unknown. */
export function portLabel(port: Pick<PreviewPort, "port" | "process">): string {
  return port.process ? `${port.port} (${port.process})` : String(port.port);
}
