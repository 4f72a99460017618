/**
 * Every action of the IDE, in one list: the command palette shows them (with their shortcuts) and
 * the keyboard runs them. To add one, add an entry here and, if it needs something new from the
 * IDE, a member to IdeCommands (provided by IdeLayout).
 */

/** The side panels an action can show or hide. */
export type IdePanel = "files" | "terminal" | "agent";

/** What actions can do in the IDE, and the state they depend on. */
export interface IdeCommands {
  /** A text file is open in the editor (find, replace and go to line need one). */
  readonly hasTextFile: boolean;
  /** The open file has a preview (Markdown, SVG). */
  readonly hasPreview: boolean;
  readonly running: boolean;
  /** The person's role here: a viewer's palette offers no changes, only the owner's starts, stops and shares. */
  readonly role: "owner" | "editor" | "viewer";
  quickOpen(): void;
  commandPalette(): void;
  findInFiles(replace: boolean): void;
  editor(command: "find" | "replace" | "goToLine"): void;
  save(): void;
  togglePreview(): void;
  newFile(): void;
  newFolder(): void;
  newTerminal(): void;
  togglePanel(panel: IdePanel): void;
  maximiseTerminal(): void;
  openAgent(): void;
  startWorkspace(): void;
  stopWorkspace(): void;
  share(): void;
}

export interface IdeAction {
  id: string;
  /** The name the palette shows and matches. */
  title: string;
  /** The shortcut, as in CodeMirror: "Mod-Shift-p" (Mod is Cmd on a Mac, Ctrl elsewhere). */
  keys?: string;
  /** Offered, and run by its shortcut, only when this holds; otherwise the key does what it did. */
  when?(ide: IdeCommands): boolean;
  run(ide: IdeCommands): void;
}

const withTextFile = (ide: IdeCommands) => ide.hasTextFile;
const canEdit = (ide: IdeCommands) => ide.role !== "viewer";
const isOwner = (ide: IdeCommands) => ide.role === "owner";

export const IDE_ACTIONS: readonly IdeAction[] = [
  { id: "quick-open", title: "Go to file…", keys: "Mod-p", run: (ide) => ide.quickOpen() },
  {
    id: "command-palette",
    title: "Show all commands",
    keys: "Mod-Shift-p",
    run: (ide) => ide.commandPalette(),
  },
  { id: "find-in-files", title: "Find in files", keys: "Mod-Shift-f", run: (ide) => ide.findInFiles(false) },
  {
    id: "replace-in-files",
    title: "Replace in files",
    keys: "Mod-Shift-h",
    when: canEdit,
    run: (ide) => ide.findInFiles(true),
  },
  {
    id: "find",
    title: "Find in this file",
    keys: "Mod-f",
    when: withTextFile,
    run: (ide) => ide.editor("find"),
  },
  {
    id: "replace",
    title: "Replace in this file",
    keys: "Mod-h",
    when: (ide) => withTextFile(ide) && canEdit(ide),
    run: (ide) => ide.editor("replace"),
  },
  {
    id: "go-to-line",
    title: "Go to line…",
    keys: "Mod-g",
    when: withTextFile,
    run: (ide) => ide.editor("goToLine"),
  },
  {
    id: "save",
    title: "Save file",
    keys: "Mod-s",
    when: (ide) => withTextFile(ide) && canEdit(ide),
    run: (ide) => ide.save(),
  },
  {
    id: "toggle-preview",
    title: "Toggle preview (Markdown, SVG)",
    keys: "Mod-Shift-v",
    when: (ide) => ide.hasPreview,
    run: (ide) => ide.togglePreview(),
  },
  { id: "new-file", title: "New file", when: canEdit, run: (ide) => ide.newFile() },
  { id: "new-folder", title: "New folder", when: canEdit, run: (ide) => ide.newFolder() },
  {
    id: "new-terminal",
    title: "New terminal",
    keys: "Ctrl-Shift-`",
    when: (ide) => ide.running && canEdit(ide),
    run: (ide) => ide.newTerminal(),
  },
  {
    id: "toggle-files",
    title: "Show or hide the file tree",
    keys: "Mod-b",
    run: (ide) => ide.togglePanel("files"),
  },
  {
    id: "toggle-terminal",
    title: "Show or hide the terminal",
    keys: "Ctrl-`",
    run: (ide) => ide.togglePanel("terminal"),
  },
  {
    id: "maximise-terminal",
    title: "Maximise or restore the terminal",
    run: (ide) => ide.maximiseTerminal(),
  },
  {
    id: "toggle-agent",
    title: "Show or hide the agent",
    keys: "Mod-Alt-b",
    run: (ide) => ide.togglePanel("agent"),
  },
  {
    id: "open-agent",
    title: "Ask the agent",
    keys: "Mod-Alt-i",
    when: canEdit,
    run: (ide) => ide.openAgent(),
  },
  {
    id: "start-workspace",
    title: "Start the workspace",
    when: (ide) => !ide.running && isOwner(ide),
    run: (ide) => ide.startWorkspace(),
  },
  {
    id: "stop-workspace",
    title: "Stop the workspace",
    when: (ide) => ide.running && isOwner(ide),
    run: (ide) => ide.stopWorkspace(),
  },
  { id: "share", title: "Share the workspace…", when: isOwner, run: (ide) => ide.share() },
];
