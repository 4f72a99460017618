import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { displayPath, isInside } from "../../paths/resolve";

export interface ListItem {
  name: string;
  /** Relative to the workspace root. */
  path: string;
  is_dir: boolean;
  size_bytes: number;
  /** Present on symbolic links; a link leading out of the workspace is not followed. */
  is_symlink?: true;
}

/** More entries than this are cut (with `truncated`), so one huge folder cannot flood a call. */
export const MAX_ITEMS = 1000;

/** The direct children of a folder: folders first, then by name. */
export async function listFolder(
  root: string,
  folder: string,
): Promise<{ items: ListItem[]; total: number; truncated: boolean }> {
  const entries = await readdir(folder, { withFileTypes: true });
  const items = await Promise.all(entries.map((entry) => describe(root, folder, entry)));
  items.sort((a, b) => Number(b.is_dir) - Number(a.is_dir) || a.name.localeCompare(b.name, "en"));
  return { items: items.slice(0, MAX_ITEMS), total: items.length, truncated: items.length > MAX_ITEMS };
}

async function describe(root: string, folder: string, entry: Dirent): Promise<ListItem> {
  const absolute = path.join(folder, entry.name);
  const base = { name: entry.name, path: displayPath(root, absolute) };
  try {
    if (entry.isSymbolicLink()) {
      const target = await realpath(absolute).catch(() => undefined);
      if (!target || !isInside(root, target))
        return { ...base, is_dir: false, size_bytes: 0, is_symlink: true };
      const st = await stat(target);
      return {
        ...base,
        is_dir: st.isDirectory(),
        size_bytes: st.isDirectory() ? 0 : st.size,
        is_symlink: true,
      };
    }
    if (entry.isDirectory()) return { ...base, is_dir: true, size_bytes: 0 };
    const st = await stat(absolute);
    return { ...base, is_dir: false, size_bytes: st.size };
  } catch {
    // Deleted between readdir and stat: still worth showing by name.
    return { ...base, is_dir: entry.isDirectory(), size_bytes: 0 };
  }
}

/** The listing as the model reads it: one entry per line, folders with a trailing slash. */
export function formatItems(items: readonly ListItem[], total: number): string {
  if (items.length === 0) return "(empty folder)";
  const lines = items.map((item) =>
    item.is_dir ? `${item.path}/` : `${item.path}  (${formatSize(item.size_bytes)})`,
  );
  if (total > items.length) lines.push(`... ${total - items.length} more entries not shown`);
  return lines.join("\n");
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
