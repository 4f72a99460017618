import { movedPath } from "../../lib/paths/workspace-path";

/** What the editor shows for one open file; the text itself lives in its EditorState. */
export interface OpenFile {
  path: string;
  phase: "loading" | "ready" | "failed";
  /** Set once loaded: binary and oversized files get a message instead of the editor. */
  kind?: "text" | "binary" | "too_large";
  size?: number;
  error?: string;
  dirty: boolean;
  saving: boolean;
  /** A disagreement with the disk that the person has to settle. */
  notice: DiskNotice | null;
  /** The rendered view beside the text is shown (Markdown, SVG: see preview-kind.ts). */
  preview?: boolean;
  /** Shared live: the service writes it to disk (`dirty` says it has not caught up yet); no Save. */
  live?: boolean;
}

export type DiskNotice = "changed-on-disk" | "deleted-on-disk" | "save-conflict";

export interface OpenFiles {
  files: OpenFile[];
  active: string | null;
  /** Access ended: every file is read-only, nothing waits to be saved (it cannot be). */
  ended?: boolean;
}

export type OpenFilesAction =
  | { type: "open"; path: string }
  | { type: "loaded"; path: string; kind: NonNullable<OpenFile["kind"]>; size: number }
  | { type: "failed"; path: string; error: string }
  | { type: "activate"; path: string }
  | { type: "close"; path: string }
  | {
      type: "update";
      path: string;
      changes: Partial<Pick<OpenFile, "dirty" | "saving" | "notice" | "preview" | "live">>;
    }
  | { type: "moved"; from: string; to: string }
  | { type: "ended" };

export const noOpenFiles: OpenFiles = { files: [], active: null };

export function openFilesReducer(state: OpenFiles, action: OpenFilesAction): OpenFiles {
  switch (action.type) {
    case "open":
      if (state.files.some((file) => file.path === action.path)) return { ...state, active: action.path };
      return {
        ...state,
        files: [
          ...state.files,
          { path: action.path, phase: "loading", dirty: false, saving: false, notice: null },
        ],
        active: action.path,
      };
    case "loaded":
      return patch(state, action.path, {
        phase: "ready",
        kind: action.kind,
        size: action.size,
        error: undefined,
      });
    case "failed":
      return patch(state, action.path, { phase: "failed", error: action.error });
    case "activate":
      return state.files.some((file) => file.path === action.path)
        ? { ...state, active: action.path }
        : state;
    case "close": {
      const index = state.files.findIndex((file) => file.path === action.path);
      if (index === -1) return state;
      const files = state.files.filter((file) => file.path !== action.path);
      // Closing the active tab shows its neighbour, as editors do.
      const active =
        state.active === action.path
          ? (files[Math.min(index, files.length - 1)]?.path ?? null)
          : state.active;
      return { ...state, files, active };
    }
    case "update":
      return patch(state, action.path, action.changes);
    case "moved": {
      const follow = (path: string) => movedPath(path, action.from, action.to);
      return {
        ...state,
        files: state.files.map((file) => ({ ...file, path: follow(file.path) })),
        active: state.active === null ? null : follow(state.active),
      };
    }
    case "ended":
      return {
        ...state,
        ended: true,
        files: state.files.map((file) => ({ ...file, dirty: false, saving: false, notice: null })),
      };
  }
}

function patch(state: OpenFiles, path: string, changes: Partial<OpenFile>): OpenFiles {
  if (!state.files.some((file) => file.path === path)) return state;
  return {
    ...state,
    files: state.files.map((file) => (file.path === path ? { ...file, ...changes } : file)),
  };
}
