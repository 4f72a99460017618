"use client";

import type { FileEntry } from "@coder/protocol";
import { useEffect, useRef } from "react";
import styles from "./file-tree.module.css";

export interface TreeMenuActions {
  newFile(): void;
  newFolder(): void;
  rename(): void;
  remove(): void;
}

/** The right-click menu of the tree; `entry` null means the tree's background (the root). */
export function TreeMenu({
  x,
  y,
  entry,
  actions,
  onClose,
}: {
  x: number;
  y: number;
  entry: FileEntry | null;
  actions: TreeMenuActions;
  onClose: () => void;
}) {
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const closeOnOutside = (event: MouseEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) onClose();
    };
    const closeOnEscape = (event: KeyboardEvent) => event.key === "Escape" && onClose();
    window.addEventListener("mousedown", closeOnOutside);
    window.addEventListener("keydown", closeOnEscape);
    window.addEventListener("blur", onClose);
    menuRef.current?.querySelector("button")?.focus();
    return () => {
      window.removeEventListener("mousedown", closeOnOutside);
      window.removeEventListener("keydown", closeOnEscape);
      window.removeEventListener("blur", onClose);
    };
  }, [onClose]);

  const item = (label: string, run: () => void, testId: string) => (
    <button
      type="button"
      role="menuitem"
      className="popup-menu-item"
      data-testid={testId}
      onClick={() => {
        onClose();
        run();
      }}
    >
      {label}
    </button>
  );

  return (
    <div
      ref={menuRef}
      className={`popup-menu ${styles.menu}`}
      style={{ left: x, top: y }}
      role="menu"
      data-testid="tree-menu"
    >
      {item("New file", actions.newFile, "tree-new-file")}
      {item("New folder", actions.newFolder, "tree-new-folder")}
      {entry && (
        <>
          <div className={styles.menuSeparator} />
          {item("Rename", actions.rename, "tree-rename")}
          {item("Delete", actions.remove, "tree-delete")}
        </>
      )}
    </div>
  );
}
