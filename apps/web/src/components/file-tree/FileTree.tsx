"use client";

import type { FileEntry, TreeResult } from "@coder/protocol";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { type Ref, useCallback, useImperativeHandle, useMemo, useState } from "react";
import { redirectIfLoggedOut } from "../../lib/auth/session-expiry";
import { errorMessage } from "../../lib/errors/error-message";
import { joinPath, movedPath, parentOf, ROOT, validEntryName } from "../../lib/paths/workspace-path";
import { useTRPC, useTRPCClient } from "../../lib/trpc/client";
import { useCanEdit } from "../access/workspace-access";
import { usePresenceState } from "../presence/presence-context";
import { useToasts } from "../toast/Toasts";
import styles from "./file-tree.module.css";
import { TreeMenu } from "./TreeMenu";
import { TreeRows } from "./TreeRows";
import { TreeContext, type TreeContextValue, type TreeEditing } from "./tree-context";
import { treeMarks } from "./tree-marks";
import { type FolderListing, treeRows } from "./tree-rows";
import { useFileDrop } from "./use-file-drop";

/** What the IDE's commands do in the tree. */
export interface FileTreeHandle {
  newFile(): void;
  newFolder(): void;
}

export interface FileTreeProps {
  workspaceId: string;
  activePath: string | null;
  onOpenFile(path: string): void;
  /** A file or folder was renamed from the tree. */
  onMoved(from: string, to: string): void;
  /** A file or folder was deleted from the tree. */
  onDeleted(path: string): void;
  ref?: Ref<FileTreeHandle>;
}

export function FileTree({ workspaceId, activePath, onOpenFile, onMoved, onDeleted, ref }: FileTreeProps) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [editing, setEditing] = useState<TreeEditing | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; entry: FileEntry | null } | null>(null);
  const drop = useFileDrop(workspaceId);

  const listingKey = useCallback(
    (folder: string) => trpc.files.tree.queryKey({ workspaceId, path: folder, depth: 1 }),
    [trpc, workspaceId],
  );
  // Refresh at once rather than waiting for the watcher's event.
  const refresh = (...folders: string[]) =>
    Promise.all(folders.map((folder) => queryClient.invalidateQueries({ queryKey: listingKey(folder) })));

  // The root and every expanded folder are listed (and kept fresh by the watcher's events).
  const listed = useMemo(() => [ROOT, ...expanded], [expanded]);
  const listings = useQueries({
    queries: listed.map((path) => trpc.files.tree.queryOptions({ workspaceId, path, depth: 1 })),
    combine: useCallback(
      (results: { data?: TreeResult; error: unknown }[]) =>
        new Map<string, FolderListing>(
          results.map(({ data, error }, i): [string, FolderListing] => [
            listed[i] ?? ROOT,
            data
              ? { status: "ok", ...data }
              : error
                ? { status: "error", message: errorMessage(error) }
                : { status: "pending" },
          ]),
        ),
      [listed],
    ),
  });
  const rows = useMemo(
    () =>
      treeRows({
        listing: (folder) => listings.get(folder) ?? { status: "pending" },
        isExpanded: (folder) => expanded.has(folder),
        editing,
      }),
    [listings, expanded, editing],
  );

  const expand = (folder: string) => setExpanded((current) => new Set(current).add(folder));

  async function submitName(rawName: string): Promise<string | null> {
    if (!editing) return null;
    const problem = validEntryName(rawName);
    if (problem) return problem;
    const name = rawName.trim();
    const folder = editing.kind === "rename" ? parentOf(editing.entry.path) : editing.folder;
    const path = joinPath(folder, name);
    if (editing.kind === "rename" && path === editing.entry.path) {
      setEditing(null);
      return null;
    }
    const siblings = queryClient.getQueryData(listingKey(folder))?.entries ?? [];
    if (siblings.some((entry) => entry.name === name)) return `“${name}” already exists here.`;
    try {
      if (editing.kind === "rename") {
        const from = editing.entry.path;
        await client.files.rename.mutate({ workspaceId, from, to: path });
        setExpanded((current) => new Set([...current].map((p) => movedPath(p, from, path))));
        onMoved(from, path);
      } else if (editing.kind === "new-folder") {
        await client.files.mkdir.mutate({ workspaceId, path });
        expand(path);
      } else {
        await client.files.write.mutate({ workspaceId, path, content: "" });
        onOpenFile(path);
      }
    } catch (error) {
      // Shown beside the field, which stays open to try again.
      return redirectIfLoggedOut(error) ? null : errorMessage(error);
    }
    setEditing(null);
    await refresh(folder);
    return null;
  }

  async function confirmDelete(entry: FileEntry) {
    const what = entry.isDir ? `the folder “${entry.path}” and everything in it` : `“${entry.path}”`;
    if (!window.confirm(`Delete ${what}? This cannot be undone.`)) return;
    try {
      await client.files.delete.mutate({ workspaceId, path: entry.path });
      onDeleted(entry.path);
    } catch (error) {
      if (!redirectIfLoggedOut(error)) toasts.error(`Could not delete ${entry.path}: ${errorMessage(error)}`);
    }
    await refresh(parentOf(entry.path));
  }

  /** New entries from the menu go into the folder clicked, or beside the file clicked. */
  function startCreating(kind: "new-file" | "new-folder", entry: FileEntry | null) {
    const folder = entry ? (entry.isDir ? entry.path : parentOf(entry.path)) : ROOT;
    if (folder !== ROOT) expand(folder);
    setEditing({ kind, folder });
  }

  useImperativeHandle(ref, () => ({
    newFile: () => startCreating("new-file", null),
    newFolder: () => startCreating("new-folder", null),
  }));

  const closeMenu = useCallback(() => setMenu(null), []);

  const { people } = usePresenceState();
  const marks = useMemo(() => treeMarks(people), [people]);
  const context: TreeContextValue = {
    workspaceId,
    activePath,
    marks,
    isExpanded: (path) => expanded.has(path),
    toggle: (path) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(path)) next.add(path);
        return next;
      }),
    openFile: onOpenFile,
    openMenu: (x, y, entry) => setMenu({ x, y, entry }),
    editing,
    cancelEditing: () => setEditing(null),
    submitName,
  };

  const menuEntry = menu?.entry ?? null;
  // A viewer browses: no new files, renames or deletes (the service refuses them anyway).
  const canEdit = useCanEdit();
  return (
    <TreeContext.Provider value={context}>
      <section
        className={styles.tree}
        data-testid="file-tree"
        data-dropping={drop.dropping || undefined}
        data-uploading={drop.busy || undefined}
        // A viewer's tree is no drop target: the browser does not even offer to drop there.
        {...(canEdit ? drop.handlers : {})}
      >
        <header className={`panel-header ${styles.header}`}>
          <span className={styles.heading}>Files</span>
          {canEdit && (
            <>
              <button
                type="button"
                className={styles.tool}
                title="New file"
                onClick={() => startCreating("new-file", null)}
              >
                + file
              </button>
              <button
                type="button"
                className={styles.tool}
                title="New folder"
                onClick={() => startCreating("new-folder", null)}
              >
                + folder
              </button>
            </>
          )}
          <button
            type="button"
            className={styles.tool}
            title="Reload the tree"
            onClick={() => queryClient.invalidateQueries({ queryKey: trpc.files.tree.pathKey() })}
          >
            ⟳
          </button>
        </header>
        <TreeRows
          rows={rows}
          onRetry={(folder) => void refresh(folder)}
          rootProps={{
            onContextMenu: (event) => {
              // Rows open their own menu; anywhere else in the tree opens the root's.
              if (event.defaultPrevented) return;
              event.preventDefault();
              setMenu({ x: event.clientX, y: event.clientY, entry: null });
            },
          }}
        />
        {menu && canEdit && (
          <TreeMenu
            x={menu.x}
            y={menu.y}
            entry={menuEntry}
            onClose={closeMenu}
            actions={{
              newFile: () => startCreating("new-file", menuEntry),
              newFolder: () => startCreating("new-folder", menuEntry),
              rename: () => menuEntry && setEditing({ kind: "rename", entry: menuEntry }),
              remove: () => menuEntry && void confirmDelete(menuEntry),
            }}
          />
        )}
      </section>
    </TreeContext.Provider>
  );
}
