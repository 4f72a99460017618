"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { type ImperativePanelHandle, Panel, PanelGroup, PanelResizeHandle } from "react-resizable-panels";
import { useTRPC } from "../../lib/trpc/client";
import { useWorkspaceAccess } from "../access/workspace-access";
import { ChatPanel } from "../chat/ChatPanel";
import { CommandPalette } from "../commands/CommandPalette";
import { IDE_ACTIONS, type IdeCommands, type IdePanel } from "../commands/ide-actions";
import { useIdeShortcuts } from "../commands/use-ide-shortcuts";
import { EditorArea } from "../editor/EditorArea";
import { previewKindOf } from "../editor/preview-kind";
import { useEditor } from "../editor/use-editor";
import { FileTree, type FileTreeHandle } from "../file-tree/FileTree";
import { PortsPanel } from "../ports/PortsPanel";
import { canOpenPort } from "../ports/port-rows";
import { usePortToasts } from "../ports/use-port-toasts";
import { usePorts } from "../ports/use-ports";
import { PreviewPane } from "../preview/PreviewPane";
import { QuickOpen } from "../quick-open/QuickOpen";
import { SearchPanel, type SearchPanelHandle } from "../search/SearchPanel";
import { SourceControlPanel } from "../source-control/SourceControlPanel";
import { TalkPanel } from "../talk/TalkPanel";
import { TerminalPanel, type TerminalPanelHandle } from "../terminal/TerminalPanel";
import styles from "./ide.module.css";
import { useFileChanges } from "./use-file-changes";

type Picker = "files" | "commands" | null;
type Sidebar = "files" | "search" | "git" | "ports";
const SIDEBAR_LABELS: Record<Sidebar, string> = {
  files: "Files",
  search: "Search",
  git: "Source Control",
  ports: "Ports",
};

/**
 * File tree (or find in files, source control, or the ports) on the left, editor in the centre with
 * terminals below it and a port's preview beside it when one is open, the
 * agent's chat on the right with the people's talk below it; the split sizes are remembered and
 * each side can be hidden. Every action is in commands/ide-actions.ts, run by its shortcut or from
 * the command palette.
 */
export function IdeLayout({
  workspaceId,
  running,
  onActiveFile,
  onShare,
}: {
  workspaceId: string;
  running: boolean;
  /** Told the file the editor shows whenever it changes (presence). */
  onActiveFile: (path: string | null) => void;
  /** Opens the Share dialog (the owner's). */
  onShare: () => void;
}) {
  const trpc = useTRPC();
  const { role } = useWorkspaceAccess();
  const editor = useEditor(workspaceId, role === "viewer");
  const { files, active } = useSyncExternalStore(editor.subscribe, editor.snapshot, editor.snapshot);
  useFileChanges(workspaceId, editor, running);
  useEffect(() => onActiveFile(active), [active, onActiveFile]);
  const [picker, setPicker] = useState<Picker>(null);
  const [sidebar, setSidebar] = useState<Sidebar>("files");
  const ports = usePorts(workspaceId, running);
  const [previewPort, setPreviewPort] = useState<number | null>(null);
  const previewed = ports?.find((p) => p.port === previewPort);
  usePortToasts(
    ports,
    role,
    useCallback((port: number) => setPreviewPort(port), []),
  );
  const [maximised, setMaximised] = useState(false);
  const panels = {
    files: useRef<ImperativePanelHandle>(null),
    terminal: useRef<ImperativePanelHandle>(null),
    agent: useRef<ImperativePanelHandle>(null),
    editor: useRef<ImperativePanelHandle>(null),
  };
  const tree = useRef<FileTreeHandle>(null);
  const search = useRef<SearchPanelHandle>(null);
  const terminals = useRef<TerminalPanelHandle>(null);
  const start = useMutation(trpc.workspace.start.mutationOptions());
  const stop = useMutation(trpc.workspace.stop.mutationOptions());

  const activeFile = files.find((file) => file.path === active);
  // Open tabs other than the active one: quick open lists them first.
  const recent = useMemo(
    () => files.map((file) => file.path).filter((path) => path !== active),
    [files, active],
  );
  const hasTextFile = activeFile?.phase === "ready" && activeFile.kind === "text";
  const show = (panel: IdePanel) => panels[panel].current?.expand();
  const showSidebar = (view: Sidebar) => {
    setSidebar(view);
    show("files");
  };
  const toggleMaximised = () => {
    const editorPanel = panels.editor.current;
    if (!editorPanel) return;
    show("terminal");
    if (editorPanel.isCollapsed()) editorPanel.expand();
    else editorPanel.collapse();
  };
  const open = async (path: string, line?: number, column?: number) => {
    setPicker(null);
    if (line === undefined) await editor.open(path);
    else await editor.goTo(path, line, column ?? 1);
    if (line === undefined) editor.focus();
  };

  const ide: IdeCommands = {
    hasTextFile,
    hasPreview: hasTextFile && active !== null && previewKindOf(active) !== undefined,
    running,
    quickOpen: () => setPicker("files"),
    commandPalette: () => setPicker("commands"),
    findInFiles: (replace) => {
      showSidebar("search");
      search.current?.focus(replace);
    },
    editor: (command) => editor.command(command),
    save: () => active && void editor.save(active),
    togglePreview: () => active && editor.togglePreview(active),
    newFile: () => {
      showSidebar("files");
      tree.current?.newFile();
    },
    newFolder: () => {
      showSidebar("files");
      tree.current?.newFolder();
    },
    newTerminal: () => {
      show("terminal");
      terminals.current?.add();
    },
    togglePanel: (panel) => {
      const handle = panels[panel].current;
      if (handle?.isCollapsed()) handle.expand();
      else handle?.collapse();
    },
    maximiseTerminal: toggleMaximised,
    openAgent: () => {
      show("agent");
      requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-testid=chat-input]")?.focus());
    },
    startWorkspace: () => start.mutate({ workspaceId }),
    stopWorkspace: () => stop.mutate({ workspaceId }),
    role,
    share: onShare,
  };
  useIdeShortcuts(IDE_ACTIONS, ide);

  return (
    <>
      <PanelGroup direction="horizontal" autoSaveId="coder.ide.columns.chat" className={styles.panels}>
        <Panel
          ref={panels.files}
          id="files"
          order={1}
          defaultSize={20}
          minSize={10}
          collapsible
          className={styles.panel}
        >
          <div className={styles.sidebar}>
            <div className={styles.sidebarTabs} role="tablist">
              {(["files", "search", "git", "ports"] as const).map((view) => (
                <button
                  key={view}
                  type="button"
                  role="tab"
                  aria-selected={sidebar === view}
                  className={styles.sidebarTab}
                  data-testid={`sidebar-${view}`}
                  onClick={() => setSidebar(view)}
                >
                  {SIDEBAR_LABELS[view]}
                </button>
              ))}
            </div>
            {/* Both stay mounted, so the tree keeps its folders and the search its results. */}
            <div className={styles.sidebarView} hidden={sidebar !== "files"}>
              <FileTree
                ref={tree}
                workspaceId={workspaceId}
                activePath={active}
                onOpenFile={(path) => void editor.open(path)}
                onMoved={(from, to) => editor.moved(from, to)}
                onDeleted={(path) => editor.deleted(path)}
              />
            </div>
            <div className={styles.sidebarView} hidden={sidebar !== "search"}>
              <SearchPanel
                ref={search}
                workspaceId={workspaceId}
                onOpen={(path, line, column) => void editor.goTo(path, line, column)}
                unsavedPaths={() => files.filter((file) => file.dirty).map((file) => file.path)}
              />
            </div>
            {/* Mounted only while shown: hidden, it would keep asking git for status. */}
            {sidebar === "git" && (
              <div className={styles.sidebarView}>
                <SourceControlPanel workspaceId={workspaceId} running={running} />
              </div>
            )}
            <div className={styles.sidebarView} hidden={sidebar !== "ports"}>
              <PortsPanel workspaceId={workspaceId} ports={ports} onOpenBeside={setPreviewPort} />
            </div>
          </div>
        </Panel>
        <PanelResizeHandle className={styles.handleVertical} />
        <Panel id="centre" order={2} defaultSize={52} minSize={25} className={styles.panel}>
          <PanelGroup direction="vertical" autoSaveId="coder.ide.rows">
            <Panel
              ref={panels.editor}
              id="editor"
              order={1}
              defaultSize={65}
              minSize={15}
              collapsible
              onCollapse={() => setMaximised(true)}
              onExpand={() => setMaximised(false)}
              className={styles.panel}
            >
              <PanelGroup direction="horizontal" autoSaveId="coder.ide.editor-and-preview">
                <Panel id="editor-area" order={1} defaultSize={55} minSize={20} className={styles.panel}>
                  <EditorArea controller={editor} workspaceId={workspaceId} />
                </Panel>
                {previewPort !== null && (
                  <>
                    <PanelResizeHandle className={styles.handleVertical} />
                    <Panel id="preview" order={2} defaultSize={45} minSize={15} className={styles.panel}>
                      <PreviewPane
                        key={previewPort}
                        workspaceId={workspaceId}
                        port={previewPort}
                        running={running}
                        listening={ports === undefined || previewed !== undefined}
                        openable={!previewed || canOpenPort(role, previewed.visibility)}
                        onClose={() => setPreviewPort(null)}
                      />
                    </Panel>
                  </>
                )}
              </PanelGroup>
            </Panel>
            <PanelResizeHandle className={styles.handleHorizontal} />
            <Panel
              ref={panels.terminal}
              id="terminal"
              order={2}
              defaultSize={35}
              minSize={10}
              collapsible
              className={styles.panel}
            >
              <TerminalPanel
                ref={terminals}
                workspaceId={workspaceId}
                running={running}
                maximised={maximised}
                onToggleMaximised={toggleMaximised}
              />
            </Panel>
          </PanelGroup>
        </Panel>
        <PanelResizeHandle className={styles.handleVertical} />
        <Panel
          ref={panels.agent}
          id="agent"
          order={3}
          defaultSize={28}
          minSize={15}
          collapsible
          className={styles.panel}
        >
          {/* The agent's chat above, the people's talk below. */}
          <PanelGroup direction="vertical" autoSaveId="coder.ide.agent-and-people">
            <Panel id="agent-chat" order={1} defaultSize={70} minSize={20} className={styles.panel}>
              <ChatPanel workspaceId={workspaceId} />
            </Panel>
            <PanelResizeHandle className={styles.handleHorizontal} />
            <Panel id="people" order={2} defaultSize={30} minSize={10} collapsible className={styles.panel}>
              <TalkPanel workspaceId={workspaceId} />
            </Panel>
          </PanelGroup>
        </Panel>
      </PanelGroup>
      {picker === "files" && (
        <QuickOpen
          workspaceId={workspaceId}
          recent={recent}
          onOpen={(path, line, column) => void open(path, line, column)}
          onGoToLine={(line, column) => {
            setPicker(null);
            if (active) void editor.goTo(active, line, column ?? 1);
          }}
          onCommands={() => setPicker("commands")}
          onClose={() => setPicker(null)}
        />
      )}
      {picker === "commands" && (
        <CommandPalette actions={IDE_ACTIONS} ide={ide} onClose={() => setPicker(null)} />
      )}
    </>
  );
}
