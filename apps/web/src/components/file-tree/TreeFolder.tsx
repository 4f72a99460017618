"use client";

import type { FileEntry } from "@coder/protocol";
import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./file-tree.module.css";
import { NameInput } from "./NameInput";
import { indent, useTree } from "./tree-context";

/** One folder's entries, listed when it is first shown; sub-folders list themselves when expanded. */
export function TreeFolder({ path, depth }: { path: string; depth: number }) {
  const tree = useTree();
  const trpc = useTRPC();
  const listing = useQuery(trpc.files.tree.queryOptions({ workspaceId: tree.workspaceId, path, depth: 1 }));
  const { editing } = tree;
  const creatingHere = editing && editing.kind !== "rename" && editing.folder === path;

  if (listing.isPending) {
    return (
      <div className={styles.status} style={{ paddingLeft: indent(depth) }}>
        <span className="spinner" /> Loading…
      </div>
    );
  }
  if (listing.isError) {
    return (
      <div className={styles.status} style={{ paddingLeft: indent(depth) }} role="alert">
        <span className={styles.statusError}>{errorMessage(listing.error)}</span>
        <button type="button" className={styles.linkButton} onClick={() => listing.refetch()}>
          Retry
        </button>
      </div>
    );
  }

  return (
    <>
      {creatingHere && <NameInput initial="" depth={depth} />}
      {listing.data.entries.map((entry) => (
        <Fragment key={entry.path}>
          {editing?.kind === "rename" && editing.entry.path === entry.path ? (
            <NameInput initial={entry.name} depth={depth} />
          ) : (
            <TreeRow entry={entry} depth={depth} />
          )}
          {entry.isDir && tree.isExpanded(entry.path) && <TreeFolder path={entry.path} depth={depth + 1} />}
        </Fragment>
      ))}
      {listing.data.entries.length === 0 && !creatingHere && (
        <div className={styles.status} style={{ paddingLeft: indent(depth) }}>
          empty
        </div>
      )}
      {listing.data.truncated && (
        <div className={styles.status} style={{ paddingLeft: indent(depth) }}>
          Too many entries: some are not shown.
        </div>
      )}
    </>
  );
}

function TreeRow({ entry, depth }: { entry: FileEntry; depth: number }) {
  const tree = useTree();
  const expanded = entry.isDir && tree.isExpanded(entry.path);
  const activate = () => (entry.isDir ? tree.toggle(entry.path) : tree.openFile(entry.path));
  return (
    <div
      role="treeitem"
      tabIndex={0}
      aria-expanded={entry.isDir ? expanded : undefined}
      aria-selected={tree.activePath === entry.path}
      className={`${styles.row} ${tree.activePath === entry.path ? styles.activeRow : ""}`}
      style={{ paddingLeft: indent(depth) }}
      title={entry.isSymlink ? `${entry.path} (symbolic link)` : entry.path}
      data-testid="tree-item"
      data-path={entry.path}
      data-dir={String(entry.isDir)}
      onClick={activate}
      onKeyDown={(event) => {
        if (event.key === "Enter") activate();
      }}
      onContextMenu={(event) => {
        event.preventDefault();
        tree.openMenu(event.clientX, event.clientY, entry);
      }}
    >
      <span className={styles.chevron}>{entry.isDir ? (expanded ? "▾" : "▸") : ""}</span>
      <span
        className={`${styles.name} ${entry.isDir ? styles.folderName : ""} ${entry.isSymlink ? styles.link : ""}`}
      >
        {entry.name}
      </span>
    </div>
  );
}
