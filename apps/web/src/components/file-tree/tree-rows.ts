import type { FileEntry } from "@coder/protocol";
import { ROOT } from "../../lib/paths/workspace-path";
import type { TreeEditing } from "./tree-context";

/** What is known of one folder's listing. */
export type FolderListing =
  | { status: "pending" }
  | { status: "error"; message: string }
  | { status: "ok"; entries: readonly FileEntry[]; truncated: boolean };

/** One line of the tree as drawn: an entry, the inline name field, or a note about a folder. */
export type TreeRow =
  | { kind: "entry"; key: string; depth: number; entry: FileEntry }
  | { kind: "name"; key: string; depth: number; initial: string }
  | { kind: "loading" | "empty" | "truncated"; key: string; depth: number; folder: string }
  | { kind: "error"; key: string; depth: number; folder: string; message: string };

export interface TreeShape {
  listing(folder: string): FolderListing;
  isExpanded(folder: string): boolean;
  editing: TreeEditing | null;
}

/**
 * The visible tree as a flat list of rows, depth first, so that only the rows on screen need to
 * be drawn (a folder of 20 000 entries is 20 000 rows, not 20 000 elements).
 */
export function treeRows(shape: TreeShape): TreeRow[] {
  const rows: TreeRow[] = [];
  const { editing } = shape;
  const addFolder = (folder: string, depth: number) => {
    const listing = shape.listing(folder);
    if (listing.status === "pending") {
      rows.push({ kind: "loading", key: `loading:${folder}`, depth, folder });
      return;
    }
    if (listing.status === "error") {
      rows.push({ kind: "error", key: `error:${folder}`, depth, folder, message: listing.message });
      return;
    }
    const creatingHere = editing !== null && editing.kind !== "rename" && editing.folder === folder;
    if (creatingHere) rows.push({ kind: "name", key: `new:${folder}`, depth, initial: "" });
    for (const entry of listing.entries) {
      if (editing?.kind === "rename" && editing.entry.path === entry.path) {
        rows.push({ kind: "name", key: `rename:${entry.path}`, depth, initial: entry.name });
      } else {
        rows.push({ kind: "entry", key: entry.path, depth, entry });
      }
      if (entry.isDir && shape.isExpanded(entry.path)) addFolder(entry.path, depth + 1);
    }
    if (listing.entries.length === 0 && !creatingHere)
      rows.push({ kind: "empty", key: `empty:${folder}`, depth, folder });
    if (listing.truncated) rows.push({ kind: "truncated", key: `truncated:${folder}`, depth, folder });
  };
  addFolder(ROOT, 0);
  return rows;
}
