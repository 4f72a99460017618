import { indentWithTab } from "@codemirror/commands";
import { EditorState, type Extension } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";

const layout = EditorView.theme({
  "&": { height: "100%", fontSize: "13px" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.5" },
  "&.cm-focused": { outline: "none" },
});

/**
 * Everything an open file's editor state carries; Tab indents, as it does in an IDE. A read-only
 * editor (a viewer's) shows and selects text but takes no typing, paste or drop.
 */
export function editorExtensions(language: Extension, readOnly: boolean): Extension {
  return [basicSetup, keymap.of([indentWithTab]), oneDark, layout, language, readOnly ? noEditing : []];
}

/** Shows and selects, takes no typing, paste or drop; added to a state it makes it read-only. */
export const noEditing: Extension = [EditorState.readOnly.of(true), EditorView.editable.of(false)];
