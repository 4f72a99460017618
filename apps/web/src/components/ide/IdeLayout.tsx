"use client";

import { useEffect, useSyncExternalStore } from "react";
import { Panel, PanelGroup, PanelResizeHandle } from "react-resizable-panels";
import { useCanEdit } from "../access/workspace-access";
import { ChatPanel } from "../chat/ChatPanel";
import { EditorArea } from "../editor/EditorArea";
import { useEditor } from "../editor/use-editor";
import { FileTree } from "../file-tree/FileTree";
import { TerminalPanel } from "../terminal/TerminalPanel";
import styles from "./ide.module.css";
import { useFileChanges } from "./use-file-changes";

/**
 * File tree on the left, editor in the centre with terminals below it, the agent's chat on the
 * right; the split sizes are remembered.
 */
export function IdeLayout({
  workspaceId,
  running,
  onActiveFile,
}: {
  workspaceId: string;
  running: boolean;
  /** Told the file the editor shows whenever it changes (presence). */
  onActiveFile: (path: string | null) => void;
}) {
  const editor = useEditor(workspaceId, !useCanEdit());
  const { active } = useSyncExternalStore(editor.subscribe, editor.snapshot, editor.snapshot);
  useFileChanges(workspaceId, editor, running);
  useEffect(() => onActiveFile(active), [active, onActiveFile]);

  return (
    <PanelGroup direction="horizontal" autoSaveId="coder.ide.columns.chat" className={styles.panels}>
      <Panel defaultSize={20} minSize={10} className={styles.panel}>
        <FileTree
          workspaceId={workspaceId}
          activePath={active}
          onOpenFile={(path) => void editor.open(path)}
          onMoved={(from, to) => editor.moved(from, to)}
          onDeleted={(path) => editor.deleted(path)}
        />
      </Panel>
      <PanelResizeHandle className={styles.handleVertical} />
      <Panel defaultSize={52} minSize={25} className={styles.panel}>
        <PanelGroup direction="vertical" autoSaveId="coder.ide.rows">
          <Panel defaultSize={65} minSize={15} className={styles.panel}>
            <EditorArea controller={editor} />
          </Panel>
          <PanelResizeHandle className={styles.handleHorizontal} />
          <Panel defaultSize={35} minSize={10} className={styles.panel}>
            <TerminalPanel workspaceId={workspaceId} />
          </Panel>
        </PanelGroup>
      </Panel>
      <PanelResizeHandle className={styles.handleVertical} />
      <Panel defaultSize={28} minSize={15} className={styles.panel}>
        <ChatPanel workspaceId={workspaceId} />
      </Panel>
    </PanelGroup>
  );
}
