"use client";

import type { FileEntry } from "@coder/protocol";
import { createContext, useContext } from "react";
import type { FileMark } from "./tree-marks";

/** An inline name field in the tree: for a new entry in `folder`, or renaming `entry`. */
export type TreeEditing =
  | { kind: "new-file" | "new-folder"; folder: string }
  | { kind: "rename"; entry: FileEntry };

/** What every row of the tree needs from the tree as a whole. */
export interface TreeContextValue {
  workspaceId: string;
  activePath: string | null;
  /** Who else has each file open (files nobody else has open are absent). */
  marks: ReadonlyMap<string, FileMark>;
  isExpanded(path: string): boolean;
  toggle(path: string): void;
  openFile(path: string): void;
  openMenu(x: number, y: number, entry: FileEntry | null): void;
  editing: TreeEditing | null;
  cancelEditing(): void;
  /** Applies the name typed into the inline field; resolves to an error to show, or null. */
  submitName(name: string): Promise<string | null>;
}

export const TreeContext = createContext<TreeContextValue | null>(null);

export function useTree(): TreeContextValue {
  const value = useContext(TreeContext);
  if (!value) throw new Error("useTree needs a FileTree above it");
  return value;
}

/** Left padding of a row `depth` folders deep. */
export const indent = (depth: number): number => 8 + depth * 14;
