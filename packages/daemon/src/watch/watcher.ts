import path from "node:path";
import type { FileChange } from "@coder/protocol";
import { watch } from "chokidar";

/** Folders whose contents churn by the thousand (git objects, installs) and are not shown live. */
const UNWATCHED_FOLDERS = new Set([".git", "node_modules"]);

const EVENTS = ["add", "addDir", "change", "unlink", "unlinkDir"] as const;

function relativeToRoot(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

/** Ignores what lies inside an unwatched folder, but not the folder itself (it appears and goes). */
export function insideUnwatchedFolder(root: string, abs: string): boolean {
  const segments = relativeToRoot(root, abs).split("/");
  return segments.slice(0, -1).some((segment) => UNWATCHED_FOLDERS.has(segment));
}

export interface WorkspaceWatcher {
  /** Resolves once the initial scan is done and changes from then on are reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Watches the workspace (chokidar, since recursive fs.watch needs Node 20 on Linux). */
export function watchWorkspace(
  root: string,
  onChange: (change: FileChange) => void,
  log: (message: string) => void,
): WorkspaceWatcher {
  const watcher = watch(root, {
    ignoreInitial: true,
    followSymlinks: false,
    ignored: (abs: string) => insideUnwatchedFolder(root, abs),
  });
  for (const type of EVENTS) {
    watcher.on(type, (abs: string) => {
      const rel = relativeToRoot(root, abs);
      if (rel !== "") onChange({ type, path: rel });
    });
  }
  watcher.on("error", (error) =>
    log(`file watcher: ${error instanceof Error ? error.message : String(error)}`),
  );
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return { ready, close: () => watcher.close() };
}
