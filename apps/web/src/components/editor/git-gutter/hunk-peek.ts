import { type EditorState, type Extension, StateEffect, StateField, type Text } from "@codemirror/state";
import { EditorView, keymap, showTooltip, type Tooltip } from "@codemirror/view";
import { type Hunk, hunkAtLine, revertHunk } from "./hunks";

/**
 * Opens the peek of the hunk whose marker is on the line starting at this position, or closes it
 * when it is open there already (null: closes).
 */
export const peekHunkAt = StateEffect.define<number | null>();

/**
 * VS Code's dirty diff peek: clicking a change marker shows, under its line, what git's index has
 * there; an editor may revert the change (the index's lines put back in the live text, so it
 * reaches everyone through the shared document, and nothing else in the file changes); a viewer
 * only reads. `indexText`: the gutter's git version of the file.
 */
export function hunkPeek(indexText: (state: EditorState) => Text | null): Extension {
  const hunkOf = (state: EditorState, at: number): Hunk | null => {
    const base = indexText(state);
    return base && hunkAtLine(base, state.doc, state.doc.lineAt(at).number);
  };

  /** The line start the open peek belongs to, moved with the text; null while none is open. */
  const peekAt = StateField.define<number | null>({
    create: () => null,
    update(at, tr) {
      for (const effect of tr.effects) {
        if (!effect.is(peekHunkAt)) continue;
        const asked = effect.value;
        return asked === null || asked === at || !hunkOf(tr.state, asked) ? null : asked;
      }
      if (at === null) return null;
      if (!tr.docChanged && indexText(tr.state) === indexText(tr.startState)) return at;
      const moved = tr.changes.mapPos(at);
      // The change is gone (reverted, typed back, or the index moved): nothing left to show.
      return hunkOf(tr.state, moved) ? moved : null;
    },
    provide: (field) =>
      showTooltip.compute([field], (state): Tooltip | null => {
        const at = state.field(field);
        return at === null ? null : { pos: at, above: false, create: (view) => peekDom(view, at) };
      }),
  });

  const close = (view: EditorView) => {
    if (view.state.field(peekAt) === null) return false;
    view.dispatch({ effects: peekHunkAt.of(null) });
    return true;
  };

  function peekDom(view: EditorView, at: number) {
    const dom = document.createElement("div");
    dom.className = "cm-git-peek";
    dom.dataset.testid = "git-hunk-peek";
    const hunk = hunkOf(view.state, at);
    const old = document.createElement("pre");
    old.className = "cm-git-peek-old";
    old.dataset.testid = "git-hunk-index";
    if (hunk?.indexLines) old.textContent = hunk.indexLines;
    else
      old.append(
        Object.assign(document.createElement("em"), { textContent: "Added lines: the index has none here." }),
      );
    const bar = document.createElement("div");
    bar.className = "cm-git-peek-bar";
    bar.append(Object.assign(document.createElement("span"), { textContent: "In git's index" }));
    if (!view.state.readOnly) {
      bar.append(
        button("Revert this change", "git-hunk-revert", () => {
          // The state now, not when the peek opened: someone may have typed since.
          const current = view.state.field(peekAt);
          const base = indexText(view.state);
          const now = current === null ? null : hunkOf(view.state, current);
          if (!base || !now) return;
          view.dispatch({
            changes: revertHunk(base, view.state.doc, now),
            effects: peekHunkAt.of(null),
            userEvent: "revert",
          });
          view.focus();
        }),
      );
    }
    bar.append(button("Close", "git-hunk-close", () => close(view)));
    dom.append(bar, old);
    return { dom };
  }

  return [peekAt, keymap.of([{ key: "Escape", run: close }]), peekTheme];
}

function button(label: string, testId: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "cm-git-peek-button";
  element.textContent = label;
  element.dataset.testid = testId;
  element.addEventListener("click", onClick);
  return element;
}

const peekTheme = EditorView.baseTheme({
  ".cm-tooltip.cm-git-peek": {
    minWidth: "24em",
    maxWidth: "min(80ch, 90vw)",
    border: "1px solid #0c7d9d",
    padding: "0",
  },
  ".cm-git-peek-bar": {
    display: "flex",
    alignItems: "center",
    gap: "8px",
    padding: "2px 6px",
    fontFamily: "system-ui, sans-serif",
    fontSize: "12px",
  },
  ".cm-git-peek-bar > span": { flex: "1" },
  ".cm-git-peek-button": { font: "inherit", cursor: "pointer" },
  ".cm-git-peek-old": {
    margin: "0",
    padding: "2px 6px",
    maxHeight: "40vh",
    overflow: "auto",
    background: "rgba(148, 21, 27, 0.25)",
    fontFamily: "inherit",
  },
});
