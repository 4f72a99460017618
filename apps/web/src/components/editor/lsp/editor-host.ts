import type { EditorState, TransactionSpec } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";

/**
 * What language intelligence needs from the editor: the editor keeps one state per open tab and
 * shows them in a single view, so files live as long as their tab, not as long as a view.
 */
export interface EditorHost {
  /** The editor state of an open text file. */
  stateOf(path: string): EditorState | undefined;
  /** The view, while it shows `path`. */
  viewOf(path: string): EditorView | null;
  /** Opens the file in a tab and shows it; its view, or null when it cannot be shown. */
  reveal(path: string): Promise<EditorView | null>;
  /** Applies a change to an open file, shown or not. */
  transact(path: string, spec: TransactionSpec): void;
}
