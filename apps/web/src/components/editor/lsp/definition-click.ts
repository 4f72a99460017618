import { jumpToDefinition } from "@codemirror/lsp-client";
import { EditorView } from "@codemirror/view";

/** Ctrl-click (Cmd-click on macOS) on a name jumps to its definition, as F12 does. */
export const definitionClick = EditorView.domEventHandlers({
  mousedown(event, view) {
    if (event.button !== 0 || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey)
      return false;
    const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
    if (pos === null) return false;
    event.preventDefault();
    view.dispatch({ selection: { anchor: pos } });
    return jumpToDefinition(view);
  },
});
