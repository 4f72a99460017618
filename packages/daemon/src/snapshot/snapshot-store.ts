import { existsSync } from "node:fs";
import { lstat, mkdir, rm, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DaemonErrorCode, MAX_TURN_PATCH_BYTES, type TurnDiff } from "@coder/protocol";
import { resolveEntry } from "../files/paths";
import { daemonError } from "../rpc/errors";
import { type GitPlace, runGit } from "./git";
import { findLargeFiles, literalExcludePattern, MAX_SNAPSHOT_FILE_BYTES } from "./large-files";
import { changedFiles, treeChanges, unifiedPatch } from "./tree-diff";

export interface SnapshotStoreOptions {
  /** Snapshots kept reachable; older ones go at the next garbage collection. */
  keep?: number;
  /** Collect garbage every this many snapshots. */
  gcEvery?: number;
  /** A patch longer than this is cut (the file list stays complete). */
  maxPatchBytes?: number;
}

const REF_PREFIX = "refs/snapshots/";

/**
 * Our settings, which win over the workspace's .gitattributes: files are stored byte for byte
 * (no line-ending conversion, no filters), so a restore writes back exactly what was there.
 */
const ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n";

/**
 * Snapshots of a workspace's files in a git object store outside it (and apart from the
 * workspace's own .git). A snapshot is a tree object; refs keep the latest ones alive. Operations
 * run one at a time: they share the store's index.
 */
export class SnapshotStore {
  private queue: Promise<unknown> = Promise.resolve();
  private ready = false;
  private taken = 0;
  private readonly keep: number;
  private readonly gcEvery: number;
  private readonly maxPatchBytes: number;

  constructor(
    private readonly place: GitPlace,
    options: SnapshotStoreOptions = {},
  ) {
    this.keep = options.keep ?? 100;
    this.gcEvery = options.gcEvery ?? 50;
    this.maxPatchBytes = options.maxPatchBytes ?? MAX_TURN_PATCH_BYTES;
  }

  /** Records the current files; returns the snapshot's id (its tree hash). */
  take(): Promise<string> {
    return this.exclusive(async () => {
      const tree = await this.writeTree();
      const seq = String(this.taken++).padStart(6, "0");
      const ref = `${REF_PREFIX}${String(Date.now()).padStart(15, "0")}-${seq}`;
      await runGit(this.place, ["update-ref", ref, tree]);
      await this.prune();
      return tree;
    });
  }

  /** What changed from `from` to `to` (the current files when omitted). */
  diff(from: string, to?: string): Promise<TurnDiff> {
    return this.exclusive(async () => {
      await this.mustExist(from);
      const target = to === undefined ? await this.writeTree() : await this.mustExist(to);
      const [files, patch] = await Promise.all([
        changedFiles(this.place, from, target),
        unifiedPatch(this.place, from, target, this.maxPatchBytes),
      ]);
      return { files, ...patch };
    });
  }

  /**
   * Makes the files that differ between `from` and `to` look as in `from`: changed and deleted
   * ones get `from`'s content back, the ones only `to` has are removed. `paths` narrows it to
   * those files or folders. Other files, and files too large to snapshot, are never touched.
   */
  restore(from: string, to: string, paths?: string[]): Promise<{ restored: string[]; removed: string[] }> {
    return this.exclusive(async () => {
      await this.mustExist(from);
      await this.mustExist(to);
      const changes = (await treeChanges(this.place, to, from)).filter((c) => within(c.path, paths));
      const removed = await this.removeAll(changes.filter((c) => c.status === "D").map((c) => c.path));
      const restored = changes.filter((c) => c.status !== "D").map((c) => c.path);
      await this.checkout(from, restored);
      return { restored, removed };
    });
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      await this.init();
      return run();
    });
    this.queue = next.catch(() => {});
    return next;
  }

  private async init(): Promise<void> {
    if (this.ready) return;
    const { gitDir } = this.place;
    if (!existsSync(path.join(gitDir, "HEAD"))) {
      await mkdir(gitDir, { recursive: true });
      await runGit(this.place, ["init", "--bare", "-q", gitDir], { outside: true });
    }
    for (const [key, value] of [
      ["core.autocrlf", "false"],
      ["core.quotePath", "false"],
      ["core.fsmonitor", "false"],
      ["gc.auto", "0"],
      ["advice.addEmbeddedRepo", "false"],
    ] as const) {
      await runGit(this.place, ["config", key, value]);
    }
    await mkdir(path.join(gitDir, "info"), { recursive: true });
    await writeFile(path.join(gitDir, "info", "attributes"), ATTRIBUTES);
    this.ready = true;
  }

  /** Stages the workspace as it is now (large files left out) and writes it as a tree. */
  private async writeTree(): Promise<string> {
    const large = await findLargeFiles(this.place);
    await writeFile(
      path.join(this.place.gitDir, "info", "exclude"),
      large.map((f) => `${literalExcludePattern(f)}\n`).join(""),
    );
    if (large.length > 0) {
      // Excludes do not apply to files already in the index (they were small before).
      await runGit(this.place, ["update-index", "--force-remove", "-z", "--stdin"], {
        input: `${large.join("\0")}\0`,
      });
    }
    // --ignore-errors: a file the workspace user cannot read is skipped, not fatal.
    await runGit(this.place, ["add", "-A", "--ignore-errors", "."], { okCodes: [1] });
    return (await runGit(this.place, ["write-tree"])).stdout.trim();
  }

  private async mustExist(id: string): Promise<string> {
    const { stdout, code } = await runGit(this.place, ["cat-file", "-t", id], { okCodes: [1, 128] });
    if (code !== 0 || stdout.trim() !== "tree") {
      throw daemonError(DaemonErrorCode.NotFound, `snapshot ${id} does not exist (or is no longer kept)`);
    }
    return id;
  }

  /** Drops the refs of all but the newest `keep` snapshots; collects garbage now and then. */
  private async prune(): Promise<void> {
    const { stdout } = await runGit(this.place, ["for-each-ref", "--format=%(refname)", REF_PREFIX]);
    const refs = stdout.split("\n").filter(Boolean).sort();
    const old = refs.slice(0, Math.max(0, refs.length - this.keep));
    if (old.length > 0) {
      await runGit(this.place, ["update-ref", "--stdin"], {
        input: old.map((r) => `delete ${r}\n`).join(""),
      });
    }
    if (this.taken % this.gcEvery === 0) await runGit(this.place, ["gc", "--prune=now", "--quiet"]);
  }

  /** Removes files (never one too large to have been snapshotted) and the folders they leave empty. */
  private async removeAll(files: string[]): Promise<string[]> {
    const root = this.place.workTree;
    const removed: string[] = [];
    for (const file of files) {
      const { abs } = await resolveEntry(root, file);
      const stat = await lstat(abs).catch(() => undefined);
      if (!stat) continue;
      if (stat.isFile() && stat.size > MAX_SNAPSHOT_FILE_BYTES) continue;
      await rm(abs, { recursive: true, force: true });
      removed.push(file);
      for (let dir = path.dirname(abs); dir !== root && dir.startsWith(root); dir = path.dirname(dir)) {
        if (
          !(await rmdir(dir).then(
            () => true,
            () => false,
          ))
        )
          break;
      }
    }
    return removed;
  }

  /** Writes files as they are in snapshot `tree`, through a scratch index (the store's stays as is). */
  private async checkout(tree: string, files: string[]): Promise<void> {
    if (files.length === 0) return;
    const indexFile = path.join(this.place.gitDir, `restore-index-${process.pid}`);
    try {
      await runGit(this.place, ["read-tree", tree], { indexFile });
      await runGit(this.place, ["checkout-index", "-f", "-z", "--stdin"], {
        indexFile,
        input: `${files.join("\0")}\0`,
      });
    } finally {
      await rm(indexFile, { force: true });
    }
  }
}

/** Whether a path is one of `paths` or inside one of them (no `paths`: everything). */
function within(file: string, paths: string[] | undefined): boolean {
  if (!paths) return true;
  return paths.some((p) => {
    const prefix = p.replace(/^\.\/+/, "").replace(/\/+$/, "");
    return prefix === "" || prefix === "." || file === prefix || file.startsWith(`${prefix}/`);
  });
}
