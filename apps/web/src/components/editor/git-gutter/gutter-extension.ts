import {
  type EditorState,
  type Extension,
  RangeSet,
  StateEffect,
  StateField,
  type Text,
} from "@codemirror/state";
import { EditorView, GutterMarker, gutter, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import { hunkPeek, peekHunkAt } from "./hunk-peek";
import { type LineChange, lineChanges } from "./line-changes";

/** Typing settles this long before the markers are computed again. */
const RECOMPUTE_AFTER_MS = 250;

/** Sets git's version of the file (null: none, no markers). */
export const setIndexText = StateEffect.define<string | null>();
/** Computes the markers again from the current text (the debounce's end). */
const recompute = StateEffect.define<null>();

class ChangeMarker extends GutterMarker {
  constructor(readonly kind: LineChange["kind"]) {
    super();
  }
  override eq(other: GutterMarker): boolean {
    return other instanceof ChangeMarker && other.kind === this.kind;
  }
  override toDOM(): Node {
    const bar = document.createElement("div");
    bar.className = `cm-git-${this.kind}`;
    bar.title = { added: "Added line", changed: "Changed line", deleted: "Lines deleted above" }[this.kind];
    return bar;
  }
}
const MARKERS = {
  added: new ChangeMarker("added"),
  changed: new ChangeMarker("changed"),
  deleted: new ChangeMarker("deleted"),
};

interface GutterState {
  base: Text | null;
  markers: RangeSet<GutterMarker>;
  /** The text changed since the markers were computed. */
  stale: boolean;
}

function computed(base: Text | null, doc: Text): GutterState {
  if (base === null) return { base, markers: RangeSet.empty, stale: false };
  const ranges = lineChanges(base, doc).flatMap((change) => {
    const lines = [];
    for (let line = change.fromLine; line <= change.toLine; line++)
      lines.push(MARKERS[change.kind].range(doc.line(line).from));
    return lines;
  });
  return { base, markers: RangeSet.of(ranges), stale: false };
}

/** Whether a change marker sits on the line starting at `from`. */
function hasMarker(markers: RangeSet<GutterMarker>, from: number): boolean {
  let found = false;
  markers.between(from, from, (at) => {
    if (at !== from) return;
    found = true;
    return false;
  });
  return found;
}

/** The state's gutter: git's version and the markers of the lines that differ from it. */
const gutterState = StateField.define<GutterState>({
  create: () => ({ base: null, markers: RangeSet.empty, stale: false }),
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setIndexText))
        return computed(effect.value === null ? null : tr.state.toText(effect.value), tr.state.doc);
      if (effect.is(recompute)) return computed(value.base, tr.state.doc);
    }
    if (!tr.docChanged || value.base === null) return value;
    // Until the typing settles, the markers move with the text they mark.
    return { ...value, markers: value.markers.map(tr.changes), stale: true };
  },
});

/** Asks for the markers again once typing has paused, in whichever tab the view shows. */
const debounce = ViewPlugin.fromClass(
  class {
    private timer: ReturnType<typeof setTimeout> | undefined;
    constructor(private readonly view: EditorView) {
      if (view.state.field(gutterState).stale) this.schedule();
    }
    update(update: ViewUpdate) {
      if (update.docChanged && update.state.field(gutterState).stale) this.schedule();
    }
    schedule() {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.view.dispatch({ effects: recompute.of(null) }), RECOMPUTE_AFTER_MS);
    }
    destroy() {
      clearTimeout(this.timer);
    }
  },
);

const theme = EditorView.baseTheme({
  ".cm-git-gutter": { width: "4px", paddingLeft: "1px" },
  ".cm-git-gutter .cm-gutterElement": { padding: "0" },
  ".cm-git-added, .cm-git-changed": { height: "100%", width: "3px" },
  ".cm-git-added, .cm-git-changed, .cm-git-deleted": { cursor: "pointer" },
  ".cm-git-added": { background: "#587c0c" },
  ".cm-git-changed": { background: "#0c7d9d" },
  ".cm-git-deleted": {
    width: "0",
    height: "0",
    borderTop: "4px solid transparent",
    borderBottom: "4px solid transparent",
    borderLeft: "4px solid #94151b",
    transform: "translateY(-4px)",
  },
});

/**
 * Change markers against git's index, VS Code's way: a bar beside each line added or changed,
 * a wedge where lines were deleted; a click on one shows its hunk (hunk-peek.ts). `base`: git's
 * version when the state is made, if known by then.
 */
export function gitGutter(base: () => string | null): Extension {
  return [
    gutterState.init((state: EditorState) => {
      const text = base();
      return computed(text === null ? null : state.toText(text), state.doc);
    }),
    debounce,
    gutter({
      class: "cm-git-gutter",
      markers: (view) => view.state.field(gutterState).markers,
      domEventHandlers: {
        // A click on a change marker opens its hunk's peek, or closes the one open there.
        mousedown: (view, line) => {
          if (!hasMarker(view.state.field(gutterState).markers, line.from)) return false;
          view.dispatch({ effects: peekHunkAt.of(line.from) });
          return true;
        },
      },
    }),
    hunkPeek((state) => state.field(gutterState).base),
    theme,
  ];
}
