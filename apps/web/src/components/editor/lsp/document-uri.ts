import { LSP_WORKSPACE_URI } from "@coder/protocol";
import { normalizePath } from "../../../lib/paths/workspace-path";

/**
 * Language servers see the workspace at `file:///workspace`; the editor names files relative to
 * it. Each path segment is percent-encoded, as servers expect of a `file:` URI.
 */
export function uriForPath(path: string): string {
  const segments = normalizePath(path).split("/").map(encodeURIComponent);
  return `${LSP_WORKSPACE_URI}/${segments.join("/")}`;
}

/** The workspace path of a URI, or null for a file outside the workspace (a library, say). */
export function pathForUri(uri: string): string | null {
  const prefix = `${LSP_WORKSPACE_URI}/`;
  if (!uri.startsWith(prefix)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri.slice(prefix.length));
  } catch {
    return null;
  }
  const path = normalizePath(decoded);
  // ".." would leave the workspace; the service refuses such paths anyway.
  return path === "." || path.split("/").includes("..") ? null : path;
}
