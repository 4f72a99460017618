import { containerLayout } from "@coder/protocol";
import { builtinFacts, filesReached } from "@coder/tools";

/** A path as a tool's arguments name it, as the workspace's people name it (relative to its root). */
function workspaceRelative(path: string): string | null {
  const root = `${containerLayout.workspace}/`;
  const relative = path.startsWith(root) ? path.slice(root.length) : path;
  const parts = relative.split("/").filter((part) => part !== "" && part !== ".");
  // Outside the workspace (an absolute path elsewhere, a way up): not a file anyone has open.
  if (relative.startsWith("/") || parts.includes("..") || parts.length === 0) return null;
  return parts.join("/");
}

/**
 * The file a tool call reads or changes, as presence shows it: the first file it changes, else
 * the first it reads; null when it names none or may reach any (a shell, a search).
 */
export function fileOfCall(tool: string, args: Record<string, unknown>): string | null {
  const facts = builtinFacts(tool);
  for (const reach of [facts.changes, facts.reads]) {
    const paths = filesReached(reach, args);
    if (paths === "any") return null;
    const first = paths.map(workspaceRelative).find((path) => path !== null);
    if (first) return first;
  }
  return null;
}
