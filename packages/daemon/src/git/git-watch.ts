import path from "node:path";
import { MAX_GIT_CHANGED_ENTRIES } from "@coder/protocol";
import { watch } from "chokidar";

/** A burst of git's writes (a commit touches the index, a ref, HEAD's log) becomes one notice after this long. */
export const GIT_CHANGE_DELAY_MS = 150;

/** What in `.git` says that status or branches changed; objects, logs and lock files do not. */
function isRepositoryState(relative: string): boolean {
  if (relative.endsWith(".lock")) return false;
  return (
    relative === "HEAD" ||
    relative === "index" ||
    relative === "packed-refs" ||
    relative === "MERGE_HEAD" ||
    relative === "FETCH_HEAD" ||
    relative === "refs" ||
    relative.startsWith("refs/")
  );
}

export interface GitWatcher {
  close(): Promise<void>;
}

/**
 * Calls `onChange` (debounced, with the entries of `.git` that changed) when the repository's HEAD, index or refs change, whoever changed
 * them (the panel, a terminal, the agent). The workspace watcher leaves `.git` out; this one looks
 * only at the few entries that make a panel ask again, and at the root for `.git` appearing.
 */
export function watchRepository(
  root: string,
  onChange: (entries: string[]) => void,
  log: (message: string) => void,
): GitWatcher {
  const gitDir = path.join(root, ".git");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const entries = new Set<string>();
  const changed = (abs: string) => {
    const relative = path.relative(gitDir, abs).split(path.sep).join("/");
    if (abs !== gitDir && !isRepositoryState(relative)) return;
    if (entries.size < MAX_GIT_CHANGED_ENTRIES) entries.add(abs === gitDir ? ".git" : relative.slice(0, 256));
    timer ??= setTimeout(() => {
      timer = undefined;
      const batch = [...entries];
      entries.clear();
      onChange(batch);
    }, GIT_CHANGE_DELAY_MS);
  };
  const watcher = watch(gitDir, {
    ignoreInitial: true,
    followSymlinks: false,
    // Inside .git only its refs and state files are entered; the rest is never read. (Folders
    // above it are asked about while .git does not exist yet: chokidar waits there for it.)
    ignored: (abs: string) => {
      if (!abs.startsWith(`${gitDir}${path.sep}`)) return false;
      return !isRepositoryState(path.relative(gitDir, abs).split(path.sep).join("/"));
    },
  });
  for (const type of ["add", "change", "unlink", "addDir", "unlinkDir"] as const) watcher.on(type, changed);
  watcher.on("error", (error) =>
    log(`git watcher: ${error instanceof Error ? error.message : String(error)}`),
  );
  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
