import { readdir } from "node:fs/promises";
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

/** At most this many entries of a new folder are reported from a scan (a large copy is a burst anyway). */
const NEW_FOLDER_SCAN_LIMIT = 2000;
/** A second scan this much later catches what was still being written (a temp file renamed into place). */
const NEW_FOLDER_RESCAN_MS = 150;

/**
 * What a new folder already holds when the watcher first sees it. Files written into a folder
 * in the moment before its watch is set up (`mkdir -p a && echo > a/b`, or a write that creates
 * its parents) produce no event of their own, so they are reported from a scan instead.
 */
async function scanNewFolder(
  root: string,
  folder: string,
  report: (change: FileChange) => void,
): Promise<void> {
  const queue = [folder];
  let budget = NEW_FOLDER_SCAN_LIMIT;
  while (queue.length > 0 && budget > 0) {
    const current = queue.shift() as string;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (budget-- <= 0) return;
      const abs = path.join(current, entry.name);
      if (insideUnwatchedFolder(root, abs)) continue;
      if (entry.isDirectory()) {
        report({ type: "addDir", path: relativeToRoot(root, abs) });
        if (!UNWATCHED_FOLDERS.has(entry.name)) queue.push(abs);
      } else {
        report({ type: "add", path: relativeToRoot(root, abs) });
      }
    }
  }
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
      if (rel === "") return;
      onChange({ type, path: rel });
      if (type === "addDir") {
        void scanNewFolder(root, abs, onChange);
        setTimeout(() => void scanNewFolder(root, abs, onChange), NEW_FOLDER_RESCAN_MS).unref();
      }
    });
  }
  watcher.on("error", (error) =>
    log(`file watcher: ${error instanceof Error ? error.message : String(error)}`),
  );
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return { ready, close: () => watcher.close() };
}
