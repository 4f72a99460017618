import { gotoLine, openSearchPanel } from "@codemirror/search";
import type { EditorView } from "@codemirror/view";

/** The editor's own panels, opened by the IDE's shortcuts and palette (see commands/ide-actions.ts). */
export type EditorCommand = "find" | "replace" | "goToLine";

export function runEditorCommand(view: EditorView, command: EditorCommand): void {
  view.focus();
  if (command === "goToLine") {
    gotoLine(view);
    return;
  }
  openSearchPanel(view);
  // The search panel has a replace field too (unless the file is read-only): start there.
  if (command === "replace")
    view.dom.querySelector<HTMLInputElement>(".cm-search input[name=replace]")?.select();
}
