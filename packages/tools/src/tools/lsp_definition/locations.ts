import { fileURLToPath } from "node:url";
import type { Location, LocationLink } from "../../lsp/types";

/** What `textDocument/definition` may answer, flattened to plain locations (links use their name's range). */
export function toLocations(result: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!result) return [];
  const list: (Location | LocationLink)[] = Array.isArray(result) ? result : [result];
  return list.map((item) =>
    "targetUri" in item
      ? { uri: item.targetUri, range: item.targetSelectionRange ?? item.targetRange }
      : item,
  );
}

/** The file path of a `file:` URI, or undefined for other schemes. */
export function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
