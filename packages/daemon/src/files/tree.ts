import type { Dirent } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode, type FileEntry, MAX_TREE_ENTRIES, type TreeResult } from "@coder/protocol";
import { resolveInWorkspace } from "@coder/tools";
import type { DaemonHandler } from "../rpc/dispatch";
import { daemonError, toResponseError } from "../rpc/errors";
import { resolveTarget } from "./paths";

/** Folders that are listed but never descended into. */
const OPAQUE_FOLDERS = new Set([".git"]);

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

function byFolderThenName(a: { isDir: boolean; name: string }, b: { isDir: boolean; name: string }): number {
  if (a.isDir !== b.isDir) return a.isDir ? -1 : 1;
  // Names in one folder are unique, so the code-point order settles what the collator calls equal.
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : 1);
}

function childPath(parent: string, name: string): string {
  return parent === "." ? name : `${parent}/${name}`;
}

/** A symlink counts as a folder only when it leads to one inside the workspace. */
async function linksToFolder(root: string, abs: string): Promise<boolean> {
  try {
    const target = await resolveInWorkspace(root, abs);
    return (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}

async function describe(root: string, dirAbs: string, parent: string, dirent: Dirent): Promise<FileEntry> {
  const abs = path.join(dirAbs, dirent.name);
  const st = await lstat(abs);
  const isSymlink = st.isSymbolicLink();
  return {
    name: dirent.name,
    path: childPath(parent, dirent.name),
    isDir: isSymlink ? await linksToFolder(root, abs) : st.isDirectory(),
    isSymlink,
    size: st.size,
    mtimeMs: st.mtimeMs,
  };
}

/** The first `limit` entries in listing order, chosen before any of them is stat'ed. */
function firstEntries(dirents: Dirent[], limit: number): Dirent[] {
  if (dirents.length <= limit) return dirents;
  const order = (a: Dirent, b: Dirent) =>
    byFolderThenName({ isDir: a.isDirectory(), name: a.name }, { isDir: b.isDirectory(), name: b.name });
  return dirents.sort(order).slice(0, limit);
}

/** Describes a folder's entries, sorted; entries that vanish meanwhile are left out. */
async function describeAll(root: string, dirAbs: string, parent: string, dirents: Dirent[]) {
  const settled = await Promise.allSettled(dirents.map((d) => describe(root, dirAbs, parent, d)));
  const entries = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  return entries.sort(byFolderThenName);
}

/**
 * Lists `path` down to `depth` levels, breadth first so that when the entry cap is reached the
 * upper levels are complete. A folder whose listing would not fit keeps no `children` (the
 * client lists it when opened) and the answer is marked `truncated`.
 */
export async function tree(root: string, input: string, depth: number): Promise<TreeResult> {
  const { abs, display } = await resolveTarget(root, input);
  let dirents: Dirent[];
  try {
    if (!(await stat(abs)).isDirectory()) {
      throw daemonError(DaemonErrorCode.NotDirectory, `${display} is a file, not a folder`);
    }
    dirents = await readdir(abs, { withFileTypes: true });
  } catch (error) {
    throw toResponseError(error, display);
  }
  let truncated = dirents.length > MAX_TREE_ENTRIES;
  const entries = await describeAll(root, abs, display, firstEntries(dirents, MAX_TREE_ENTRIES));
  let budget = MAX_TREE_ENTRIES - entries.length;

  let level = entries.map((entry) => ({ entry, abs: path.join(abs, entry.name) }));
  for (let d = 1; d < depth && level.length > 0; d++) {
    const next: typeof level = [];
    for (const folder of level) {
      const { entry } = folder;
      if (!entry.isDir || entry.isSymlink || OPAQUE_FOLDERS.has(entry.name)) continue;
      // A folder that cannot be read (permissions) is shown without children.
      const inside = await readdir(folder.abs, { withFileTypes: true }).catch(() => undefined);
      if (!inside) continue;
      if (inside.length > budget) {
        truncated = true;
        continue;
      }
      const children = await describeAll(root, folder.abs, entry.path, inside);
      budget -= children.length;
      entry.children = children;
      next.push(...children.map((child) => ({ entry: child, abs: path.join(folder.abs, child.name) })));
    }
    level = next;
  }
  return { path: display, entries, truncated };
}

export const treeMethod =
  (root: string): DaemonHandler<"fs.tree"> =>
  (params) =>
    tree(root, params.path, params.depth);
