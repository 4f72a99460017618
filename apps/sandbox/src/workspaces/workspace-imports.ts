import type { ImportProgress, UnpackReport, Workspace } from "@coder/protocol";
import type { DaemonPool } from "../daemon/daemon-pool";
import type { Db } from "../db/database";
import type { WorkspaceTable } from "../db/schema";
import { ImportError } from "../imports/import-error";
import { type ImportRecord, readImportRecord } from "../imports/import-record";
import type { PreparedSource, WorkspaceImporter } from "../imports/workspace-importer";
import type { Transient } from "./shared-transients";
import { WorkspaceError } from "./workspace-error";

/** How often, at most, an import's progress is published while its phase stays the same. */
const PROGRESS_INTERVAL_MS = 250;

/** What an import needs of the workspace's lifecycle (workspace-service.ts, which passes it in). */
export interface ImportLifecycle {
  /** The workspace's row; a not_found WorkspaceError when there is none. */
  row(id: string): Promise<WorkspaceTable>;
  get(id: string): Promise<Workspace>;
  /** Refuses while the workspace is being created, started or stopped. */
  assertIdle(row: WorkspaceTable): Promise<void>;
  /** The workspace's transient state on this instance. */
  transient(id: string): Transient | undefined;
  /** Keeps a transient state on this instance without publishing it (progress between publications). */
  keepTransient(id: string, t: Transient): void;
  /** Sets the transient state here and for the other instances, and publishes the workspace. */
  setTransient(id: string, t: Transient): Promise<Workspace | undefined>;
  /** Fills the volume with `fill`, then starts the container and its daemon in the background. */
  bringUpFilled(id: string, fill: (signal: AbortSignal) => Promise<void>): void;
}

export interface WorkspaceImportsDeps {
  db: Db;
  importer: WorkspaceImporter;
  daemons: DaemonPool;
  log: (line: string) => void;
  lifecycle: ImportLifecycle;
}

/**
 * Filling workspaces from a git URL or an upload: the fill of a new or retried workspace, with its
 * outcome in the workspace's row and its progress on the workspace, and uploads unpacked into a
 * running one.
 */
export class WorkspaceImports {
  private readonly progressPublished = new Map<string, number>();

  constructor(private readonly deps: WorkspaceImportsDeps) {}

  /**
   * Fills the volume of workspace `id` from a prepared source and records the outcome in its row.
   * Its container and volume must exist (running or not): a separate step, so a workspace taken
   * from elsewhere (a pool) is filled the same way. `clean` empties the volume first.
   */
  async fillVolume(
    id: string,
    prepared: PreparedSource,
    clean: boolean,
    signal?: AbortSignal,
  ): Promise<void> {
    const { db, importer, lifecycle } = this.deps;
    const row = await lifecycle.row(id).catch(async (err) => {
      await importer.release(prepared);
      throw err;
    });
    const record = readImportRecord(row.import_record);
    if (!record) throw new WorkspaceError("precondition", "this workspace was not made to be filled");
    const save = (next: ImportRecord) =>
      db
        .updateTable("workspaces")
        .set({ import_record: JSON.stringify(next) })
        .where("id", "=", id)
        .execute();
    let report: UnpackReport | undefined;
    try {
      report = await importer.fill(id, row.image, prepared, {
        clean,
        onProgress: (progress) => this.reportProgress(id, progress),
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      const detail =
        err instanceof ImportError ? err.message : `the import failed: ${(err as Error).message}`;
      await save({ origin: record.origin, state: "failed", detail });
      throw new ImportError(detail, err instanceof ImportError ? err.kind : undefined);
    }
    await save({ origin: record.origin, state: "done", ...(report ? { report } : {}) });
  }

  /** Runs a failed git import again into an emptied volume; a private repository needs its token again. */
  async retryImport(id: string, token: string | undefined): Promise<Workspace> {
    const { db, lifecycle } = this.deps;
    const workspace = await lifecycle.get(id);
    const origin = workspace.import?.origin;
    if (workspace.import?.state !== "failed" || !origin)
      throw new WorkspaceError("precondition", "only a failed import can be retried");
    if (origin.type !== "git")
      throw new WorkspaceError(
        "precondition",
        "an upload cannot be retried: delete this workspace and upload the archive again",
      );
    if (origin.private && !token)
      throw new WorkspaceError(
        "precondition",
        "this repository was cloned with a token: give the token again",
      );
    await lifecycle.assertIdle(await lifecycle.row(id));
    const { url, ref, depth, submodules } = origin;
    const prepared: PreparedSource = {
      type: "git",
      source: { type: "git", url, ref, depth, submodules, ...(token ? { token } : {}) },
    };
    // A token given now makes the next retry ask for it too.
    const retried = { ...origin, private: origin.private || token !== undefined };
    await db
      .updateTable("workspaces")
      .set({ import_record: JSON.stringify({ origin: retried, state: "running" } satisfies ImportRecord) })
      .where("id", "=", id)
      .execute();
    const creating = await lifecycle.setTransient(id, { status: "creating" });
    lifecycle.bringUpFilled(id, (signal) => this.fillVolume(id, prepared, true, signal));
    return creating ?? lifecycle.get(id);
  }

  /** Unpacks the caller's upload into a folder of a running workspace (files dropped on the tree). */
  async unpackUpload(
    id: string,
    upload: { uploadId: string; owner: string; into: string },
  ): Promise<UnpackReport> {
    const row = await this.deps.lifecycle.row(id);
    await this.deps.daemons.running(id);
    return this.deps.importer.unpackUpload(id, row.image, upload);
  }

  /** The workspace is gone. */
  forget(id: string): void {
    this.progressPublished.delete(id);
  }

  /**
   * Puts an import's progress on the workspace; published at most every 250 ms within a phase,
   * and always at a phase's start and end.
   */
  private reportProgress(id: string, progress: ImportProgress): void {
    const { lifecycle, log } = this.deps;
    const t = lifecycle.transient(id);
    if (t?.status !== "creating") return;
    const next = { ...t, progress };
    lifecycle.keepTransient(id, next);
    const now = Date.now();
    const samePhase = t.progress?.phase === progress.phase;
    // A phase's end (100 %) always shows, so a bar never stops short of full before the next phase.
    const ended = progress.percent === 100;
    if (samePhase && !ended && now - (this.progressPublished.get(id) ?? 0) < PROGRESS_INTERVAL_MS) return;
    this.progressPublished.set(id, now);
    lifecycle.setTransient(id, next).catch((err) => log(`workspace ${id}: ${(err as Error).message}`));
  }
}
