"use client";

import type { FileEntry } from "@coder/protocol";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type HTMLAttributes, useRef } from "react";
import styles from "./file-tree.module.css";
import { NameInput } from "./NameInput";
import { indent, useTree } from "./tree-context";
import type { FileMark } from "./tree-marks";
import type { TreeRow } from "./tree-rows";

/** The height of a row; the name field with an error below it is measured instead. */
const ROW_HEIGHT = 24;

/**
 * The tree's rows in a scrolling element that draws only those on screen (plus a margin), so a
 * folder of tens of thousands of entries opens and scrolls at once. `rootProps` go onto the
 * scrolling element (`role="tree"`), the place for handlers of the whole tree (menus, drops).
 */
export function TreeRows({
  rows,
  onRetry,
  rootProps,
}: {
  rows: readonly TreeRow[];
  onRetry(folder: string): void;
  rootProps?: HTMLAttributes<HTMLDivElement>;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 16,
  });
  return (
    <div ref={scroller} className={styles.entries} role="tree" {...rootProps}>
      <div className={styles.rowsSpace} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className={styles.rowSlot}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <Row row={row} onRetry={onRetry} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function Row({ row, onRetry }: { row: TreeRow; onRetry(folder: string): void }) {
  const padding = { paddingLeft: indent(row.depth) };
  switch (row.kind) {
    case "entry":
      return <EntryRow entry={row.entry} depth={row.depth} />;
    case "name":
      return <NameInput initial={row.initial} depth={row.depth} />;
    case "loading":
      return (
        <div className={styles.status} style={padding}>
          <span className="spinner" /> Loading…
        </div>
      );
    case "empty":
      return (
        <div className={styles.status} style={padding}>
          empty
        </div>
      );
    case "truncated":
      return (
        <div className={styles.status} style={padding}>
          Too many entries: some are not shown.
        </div>
      );
    case "error":
      return (
        <div className={styles.status} style={padding} role="alert">
          <span className={styles.statusError}>{row.message}</span>
          <button type="button" className={styles.linkButton} onClick={() => onRetry(row.folder)}>
            Retry
          </button>
        </div>
      );
  }
}

function EntryRow({ entry, depth }: { entry: FileEntry; depth: number }) {
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
      {!entry.isDir && <Marks mark={tree.marks.get(entry.path)} />}
    </div>
  );
}

/** A coloured dot per person who has the file open (a few, then a count). */
function Marks({ mark }: { mark: FileMark | undefined }) {
  if (!mark) return null;
  const names = mark.dots.map((dot) => dot.name).join(", ");
  return (
    <span
      className={styles.marks}
      data-testid="tree-marks"
      title={`Open for ${names}${mark.more > 0 ? ` and ${mark.more} more` : ""}`}
    >
      {mark.dots.map((dot) => (
        <span
          key={dot.id}
          className={styles.mark}
          style={{ background: dot.colour }}
          data-testid="tree-mark"
          data-name={dot.name}
        />
      ))}
      {mark.more > 0 && <span className={styles.markMore}>+{mark.more}</span>}
    </span>
  );
}
