import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type {
  CreateWorkspaceInput,
  ImportOrigin,
  Workspace,
  WorkspaceEvent,
  WorkspaceStatus,
} from "@coder/protocol";
import type { ServiceInstance } from "../cluster/service-instance";
import type { StartPatience } from "../daemon/daemon-connection";
import type { DaemonPool } from "../daemon/daemon-pool";
import type { Db } from "../db/database";
import type { WorkspaceTable } from "../db/schema";
import { StepReport } from "../driver/step-report";
import type { BringUpOptions, WorkspaceDriver, WorkspaceState } from "../driver/workspace-driver";
import { Feed } from "../events/feed";
import type { LiveBus } from "../events/live-bus";
import { type ImportRecord, readImportRecord } from "../imports/import-record";
import type { PreparedSource, WorkspaceImporter } from "../imports/workspace-importer";
import { saveTerminalScreens } from "../terminal/tmux-session";
import { WorkspaceActivity } from "./activity";
import {
  CreationCancelled,
  CreationRuns,
  DELETED_ELSEWHERE,
  DELETED_HERE,
  unlessAborted,
} from "./creation-runs";
import { SharedTransients, type Transient } from "./shared-transients";
import { WorkspaceTombstones } from "./tombstones";
import type { UserLimits } from "./user-limits";
import { WarmPool, type WarmPoolOptions } from "./warm-pool";
import { WorkspaceError } from "./workspace-error";
import { WorkspaceImports } from "./workspace-imports";

/** What a creating or starting workspace shows once its container runs, until its daemon answers. */
const STARTING_DAEMON = "starting the workspace's daemon";
/**
 * What a creating or starting workspace shows, with the seconds so far, while its daemon is slow to
 * answer its first ping ("waiting for the workspace to answer: 12 s").
 */
export const WAITING_FOR_DAEMON = "waiting for the workspace to answer";

const INTERRUPTED = "the import was interrupted when the service stopped; retry it or delete the workspace";

/** How often a delete looks whether the instance creating the workspace has removed what it made. */
const CLEANER_POLL_MS = 200;
/** How long a delete waits for that instance; the tombstone outlives the wait (a start finishes it). */
const CLEANER_WAIT_MS = 60_000;

function newWorkspaceId(): string {
  // 20 base-36 characters ≈ 103 bits: unguessable enough to appear in URLs.
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

/**
 * The life of workspaces: the database row says a workspace exists and how it was made; the engine
 * says whether its container runs; in-memory transient states cover the seconds in between
 * (creating, starting, stopping) and failures. Every change is published on `events`.
 */
export class WorkspaceService {
  readonly events = new Feed<WorkspaceEvent>(500);
  private readonly transient = new Map<string, Transient>();
  private readonly stopWatching = new AbortController();
  /** Spare workspaces made ahead, which `create` claims when one fits. */
  readonly pool: WarmPool;
  /** When each workspace was last used, for the idle stopper (idle-stopper.ts). */
  readonly activity = new WorkspaceActivity();
  /** Fills from git URLs and uploads; made here, as it needs the lifecycle's own steps (below). */
  readonly imports: WorkspaceImports;
  /** Transient states as the other instances see them (and theirs as this one does). */
  private readonly shared: SharedTransients;
  /** Creations and starts under way here, which a delete cancels. */
  private readonly creations = new CreationRuns();
  /** Deletes not yet carried out, finished at the latest by the next start. */
  private readonly tombstones: WorkspaceTombstones;

  constructor(
    private readonly db: Db,
    private readonly driver: WorkspaceDriver,
    private readonly image: string,
    private readonly log: (line: string) => void,
    /** The workspaces' daemons: connected once a workspace runs, reset when it stops. */
    private readonly daemons: DaemonPool,
    /** Fills new workspaces from a git URL or an upload (imports/). */
    private readonly importer: WorkspaceImporter,
    /** Changes are announced to the other instances on the database, and theirs heard. */
    private readonly bus: LiveBus,
    /** How many spare workspaces to keep ready (0: none), and how often to ask whether this machine takes them. */
    warmPool: Pick<WarmPoolOptions, "size" | "recheckMs"> = { size: 0 },
    /** This process among the instances on the database: transient states are shared with the others. */
    instance?: ServiceInstance,
    /** What each owner may hold; a create or start past it is refused (none: no limits). */
    private readonly limits?: Pick<UserLimits, "admitCreate" | "admitStart">,
  ) {
    this.shared = new SharedTransients(db, instance, log);
    this.tombstones = new WorkspaceTombstones(db);
    bus.listen("workspace", ({ key, local }) => {
      if (local) return;
      if (key && this.creations.has(key)) void this.cancelIfDeleted(key);
      this.republish(key).catch((err: Error) => this.log(`workspace update: ${err.message}`));
    });
    this.pool = new WarmPool({
      ...warmPool,
      db,
      driver,
      image,
      log,
      newId: newWorkspaceId,
      // A spare's daemon is as slow to start on a busy machine as any.
      connect: (id) => daemons.connection(id).ensure(this.startPatience(id)),
      disconnect: (id) => daemons.disconnect(id),
      engineBusy: () => [...this.transient.values()].some((t) => t.status !== "error"),
    });
    this.imports = new WorkspaceImports({
      db,
      importer,
      daemons,
      log,
      lifecycle: {
        row: (id) => this.row(id),
        get: (id) => this.get(id),
        assertIdle: (row) => this.assertIdle(row),
        transient: (id) => this.transient.get(id),
        keepTransient: (id, t) => this.transient.set(id, t),
        setTransient: (id, t) => this.setTransient(id, t),
        bringUpFilled: (id, fill) => {
          void this.bringUp(id, async (run) => {
            await fill(run.signal);
            await this.checkpoint(id, run.signal);
            await this.driver.start(id, run);
          });
        },
      },
    });
  }

  /** Another instance changed a workspace (null: any of them): tell this instance's subscribers. */
  private async republish(id: string | null): Promise<void> {
    const ids = id ? [id] : (await this.db.selectFrom("workspaces").select("id").execute()).map((r) => r.id);
    for (const workspaceId of ids) {
      const workspace = await this.publishUpsert(workspaceId, false);
      if (!workspace && id) this.events.publish({ type: "deleted", workspaceId });
    }
  }

  /**
   * Finds the workspaces (and spares) of an earlier run again and follows engine events from now
   * on.
   */
  async init(): Promise<void> {
    void this.followEngine();
    const buried = await this.tombstones.list();
    for (const { id, cleaner } of buried) {
      // Its delete was cut short (the service stopped): finish it, unless the live instance that was
      // creating it still will.
      if (cleaner && (await this.shared.isLive(cleaner))) continue;
      this.finishDelete(id).catch((err: Error) => this.log(`finishing the delete of ${id}: ${err.message}`));
    }
    const deleted = new Set(buried.map((t) => t.id));
    const rows = (await this.db.selectFrom("workspaces").selectAll().execute()).filter(
      (row) => !deleted.has(row.id),
    );
    const states = new Map((await this.driver.list()).map((c) => [c.id, c.state]));
    for (const row of rows) {
      const state = states.get(row.id) ?? "missing";
      if (state === "running")
        this.daemons
          .connection(row.id)
          .ensure()
          .catch((err) => this.log(`daemon ${row.id}: ${err.message}`));
      if (state === "stopped" && row.desired_state === "running") {
        this.start(row.id).catch((err) => this.log(`restart ${row.id}: ${err.message}`));
      }
    }
    await this.pool.init();
  }

  async close(): Promise<void> {
    await this.pool.close();
    this.stopWatching.abort();
    this.daemons.close();
  }

  private async followEngine(): Promise<void> {
    const signal = this.stopWatching.signal;
    while (!signal.aborted) {
      try {
        for await (const event of this.driver.events(signal)) {
          // It runs again (its machine came back): an earlier failure to start it is over.
          if (
            event.state === "running" &&
            this.transient.get(event.workspaceId)?.status === "error" &&
            !this.creations.has(event.workspaceId)
          )
            await this.putTransient(event.workspaceId, undefined);
          if (event.state !== "running") this.daemons.reset(event.workspaceId);
          else if (this.daemons.has(event.workspaceId) || !this.transient.has(event.workspaceId)) {
            this.daemons
              .connection(event.workspaceId)
              .ensure()
              .catch((err) => this.log(`daemon ${event.workspaceId}: ${err.message}`));
          }
          if (!this.transient.has(event.workspaceId)) await this.publishUpsert(event.workspaceId);
        }
      } catch (err) {
        if (!signal.aborted) this.log(`engine events: ${(err as Error).message}; retrying`);
      }
      await sleep(1000);
    }
  }

  /** `engine`: the engine's view, unless a transient state here decides (then it is not asked). */
  private toWorkspace(
    row: WorkspaceTable,
    engine: Omit<WorkspaceState, "id"> | undefined,
    live: Set<string> | undefined,
  ): Workspace {
    const { state, detail: engineDetail } = engine ?? { state: "missing" };
    const t = this.transient.get(row.id) ?? this.shared.read(row, live);
    const record = readImportRecord(row.import_record);
    // Without a transient state, an import still "running" is one a stopped service left behind.
    const importFailed = !t && (record?.state === "failed" || record?.state === "running");
    const status: WorkspaceStatus =
      t?.status ?? (importFailed ? "error" : state === "running" ? "running" : state);
    const detail =
      t?.detail ??
      (importFailed ? (record?.detail ?? INTERRUPTED) : undefined) ??
      (status === "missing" ? "the container is gone; delete this workspace or recreate it" : undefined) ??
      (status === "stopped" ? engineDetail : undefined);
    return {
      id: row.id,
      name: row.name,
      status,
      egress: row.egress === 1,
      image: row.image,
      createdAt: row.created_at,
      ...(detail ? { detail } : {}),
      ...(status === "stopped" && row.idle_stopped_at ? { idleStoppedAt: row.idle_stopped_at } : {}),
      ...(record
        ? {
            import: {
              origin: record.origin,
              state: importFailed ? "failed" : record.state,
              ...(t?.progress ? { progress: t.progress } : {}),
              ...(record.report ? { report: record.report } : {}),
            },
          }
        : {}),
    };
  }

  private async row(id: string): Promise<WorkspaceTable> {
    const row = await this.db.selectFrom("workspaces").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new WorkspaceError("not_found", `workspace ${id} does not exist`);
    return row;
  }

  async list(): Promise<Workspace[]> {
    const rows = await this.db.selectFrom("workspaces").selectAll().orderBy("created_at", "desc").execute();
    const [list, live] = await Promise.all([this.driver.list(), this.shared.liveFor(rows)]);
    const states = new Map(list.map((c) => [c.id, c]));
    return rows.map((row) => this.toWorkspace(row, states.get(row.id) ?? { state: "missing" }, live));
  }

  async get(id: string): Promise<Workspace> {
    const row = await this.row(id);
    // A create or start under way here says all there is to say, without asking an engine that a
    // busy machine makes slow to answer: what the workspace shows keeps moving.
    if (this.transient.has(id)) return this.toWorkspace(row, undefined, undefined);
    const [state, live] = await Promise.all([this.driver.state(id), this.shared.liveFor([row])]);
    const detail = state === "stopped" ? await this.driver.unavailable?.(id) : undefined;
    return this.toWorkspace(row, { state, ...(detail ? { detail } : {}) }, live);
  }

  /** Shows a change made outside the lifecycle (a new owner) in every workspace list, on every instance. */
  async publishChange(id: string): Promise<void> {
    await this.publishUpsert(id);
  }

  private async publishUpsert(id: string, announce = true): Promise<Workspace | undefined> {
    try {
      const workspace = await this.get(id);
      this.events.publish({ type: "upsert", workspace });
      if (announce) this.announce(id);
      return workspace;
    } catch (err) {
      if (err instanceof WorkspaceError) return undefined;
      throw err;
    }
  }

  private async setTransient(id: string, t: Transient | undefined): Promise<Workspace | undefined> {
    await this.putTransient(id, t);
    return this.publishUpsert(id);
  }

  /** Sets (or clears) the workspace's transient state here, and for the other instances. */
  private putTransient(id: string, t: Transient | undefined): Promise<void> {
    if (t) this.transient.set(id, t);
    else this.transient.delete(id);
    return this.shared.save(id, t);
  }

  /**
   * Records the workspace and returns at once: running when a spare was claimed, else creating while
   * the container comes up in the background, its volume filled from `fill` (a source the importer
   * prepared) before it starts.
   */
  async create(
    input: Omit<CreateWorkspaceInput, "source">,
    ownerId: string,
    fill?: { prepared: PreparedSource; origin: ImportOrigin },
  ): Promise<Workspace> {
    // Before a spare is claimed: a claimed spare counts like a new workspace.
    await this.limits?.admitCreate(ownerId).catch(async (err) => {
      if (fill) await this.importer.release(fill.prepared);
      throw err;
    });
    const id = await this.claimOrMake(input, ownerId, fill);
    const workspace = await this.publishUpsert(id);
    if (!workspace) throw new WorkspaceError("not_found", `workspace ${id} vanished while being created`);
    return workspace;
  }

  /**
   * The one step that gives a new workspace its row and its container: a spare of the warm pool
   * when one fits the request (no egress, nothing to import: a spare's daemon already watches its
   * empty volume), else a new container made in the background and filled before it starts.
   */
  private async claimOrMake(
    input: Omit<CreateWorkspaceInput, "source">,
    ownerId: string,
    fill?: { prepared: PreparedSource; origin: ImportOrigin },
  ): Promise<string> {
    const row = {
      name: input.name,
      owner_id: ownerId,
      egress: input.egress ? 1 : 0,
      image: this.image,
      created_at: new Date().toISOString(),
      desired_state: "running" as const,
      import_record: fill
        ? JSON.stringify({ origin: fill.origin, state: "running" } satisfies ImportRecord)
        : null,
    };
    const spare = input.egress || fill ? undefined : await this.pool.claim(row);
    if (spare) {
      // Connected already, unless the service has just started; a spare whose container stopped
      // meanwhile is started like any workspace.
      await this.daemons
        .connection(spare)
        .ensure()
        .catch(() => {
          void this.putTransient(spare, { status: "starting" });
          void this.bringUp(spare, (run) => this.driver.start(spare, run));
        });
      return spare;
    }
    const id = newWorkspaceId();
    await this.db
      .insertInto("workspaces")
      .values({ ...row, id })
      .execute();
    await this.putTransient(id, { status: "creating" });
    void this.bringUp(id, async (run) => {
      try {
        await this.checkpoint(id, run.signal);
        await this.driver.create({ id, image: this.image, egress: input.egress }, run);
        await this.checkpoint(id, run.signal);
      } catch (err) {
        if (fill) await this.importer.release(fill.prepared);
        throw err;
      }
      if (fill) {
        // The import's progress says what happens now.
        this.showStep(id, undefined);
        await this.imports.fillVolume(id, fill.prepared, false, run.signal);
      }
      await this.checkpoint(id, run.signal);
      await this.driver.start(id, run);
    });
    return id;
  }

  /**
   * Runs the steps that make a workspace usable, ending in a daemon that answers; what the driver
   * is doing meanwhile shows as the workspace's detail. A delete cancels them: they stop at the
   * next step boundary (`checkpoint`), and what they made is removed by the delete here, or by
   * this run when the delete came through another instance.
   */
  private bringUp(
    id: string,
    steps: (run: BringUpOptions & { signal: AbortSignal }) => Promise<void>,
  ): Promise<void> {
    return this.creations.run(id, async (signal) => {
      try {
        // A connection from before is stale; one made once the container runs (the engine's start
        // event, a call) reaches the new daemon and is the one to wait for: a second daemon
        // starting beside it would slow both.
        this.daemons.reset(id);
        const show = (step: string) => this.showStep(id, step);
        const report = new StepReport(show);
        await steps({ signal, onStep: show });
        report.begin(STARTING_DAEMON);
        await this.checkpoint(id, signal);
        const answered = this.daemons.connection(id).ensure(this.startPatience(id));
        await unlessAborted(report.waitFor(answered, WAITING_FOR_DAEMON), signal, id);
        await this.checkpoint(id, signal);
        this.activity.touch(id);
        await this.setTransient(id, undefined);
      } catch (err) {
        if (signal.reason === DELETED_HERE) return;
        if (err instanceof CreationCancelled || (await this.wasDeleted(id).catch(() => false))) {
          this.log(`workspace ${id}: deleted while being made; removing what was made`);
          await this.finishDelete(id).catch((e: Error) => this.log(`workspace ${id}: ${e.message}`));
          return;
        }
        const message = (err as Error).message;
        this.log(`workspace ${id}: ${message}`);
        // A service closing under a long import has no database left to publish from.
        await this.setTransient(id, { status: "error", detail: message }).catch(() => undefined);
      }
    });
  }

  /** A busy machine starts a daemon slowly: its first answer is waited for while the container runs. */
  private startPatience(id: string): StartPatience {
    return { stillRunning: async () => (await this.driver.state(id)) === "running" };
  }

  /**
   * Shows what a create or start under way is doing (none: nothing to say) as the workspace's
   * detail, here and for the other instances; the run's end clears it with the transient state.
   */
  private showStep(id: string, step: string | undefined): void {
    const t = this.transient.get(id);
    if ((t?.status !== "creating" && t?.status !== "starting") || t.detail === step) return;
    const { detail: _, ...rest } = t;
    this.setTransient(id, step ? { ...rest, detail: step } : rest).catch((err: Error) =>
      this.log(`workspace ${id}: ${err.message}`),
    );
  }

  /** A step boundary of a creation or start: throws once the workspace was deleted. */
  private async checkpoint(id: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted || (await this.wasDeleted(id))) throw new CreationCancelled(id);
  }

  /** Whether the workspace's delete was asked for (its row is gone, or marked by a tombstone). */
  private async wasDeleted(id: string): Promise<boolean> {
    const row = await this.db.selectFrom("workspaces").select("id").where("id", "=", id).executeTakeFirst();
    return !row || (await this.tombstones.has(id));
  }

  /** Another instance said the workspace changed: a creation here stops if that was its delete. */
  private async cancelIfDeleted(id: string): Promise<void> {
    try {
      if (await this.wasDeleted(id)) this.creations.abort(id, DELETED_ELSEWHERE);
    } catch (err) {
      this.log(`workspace ${id}: ${(err as Error).message}`);
    }
  }

  async start(id: string): Promise<Workspace> {
    const row = await this.row(id);
    await this.assertIdle(row);
    const record = readImportRecord(row.import_record);
    if (record && record.state !== "done")
      throw new WorkspaceError(
        "precondition",
        "its import did not finish: retry the import or delete the workspace",
      );
    if (row.owner_id) await this.limits?.admitStart(row.owner_id, id);
    await this.db
      .updateTable("workspaces")
      .set({ desired_state: "running", idle_stopped_at: null })
      .where("id", "=", id)
      .execute();
    return this.startContainer(id);
  }

  /**
   * Starts a workspace again that the idle stopper stopped, for anyone who may open it: waking it
   * undoes no choice of its owner's (a workspace its owner stopped stays stopped). Several people
   * opening it at once start it once: the row is claimed, and a later caller gets it as it is.
   */
  async resume(id: string): Promise<Workspace> {
    const row = await this.row(id);
    if (!row.idle_stopped_at) {
      if (row.desired_state === "running") return this.get(id);
      throw new WorkspaceError("precondition", "its owner stopped it: only the owner can start it again");
    }
    await this.assertIdle(row);
    if (row.owner_id) await this.limits?.admitStart(row.owner_id, id);
    const claimed = await this.db
      .updateTable("workspaces")
      .set({ desired_state: "running", idle_stopped_at: null })
      .where("id", "=", id)
      .where("idle_stopped_at", "is not", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return this.get(id);
    return this.startContainer(id);
  }

  private async startContainer(id: string): Promise<Workspace> {
    const workspace = await this.setTransient(id, { status: "starting" });
    void this.bringUp(id, (run) => this.driver.start(id, run));
    return workspace ?? this.get(id);
  }

  /** Stops the container; `idle`: the idle stopper does, and the status will say so. */
  async stop(id: string, { idle = false } = {}): Promise<Workspace> {
    await this.assertIdle(await this.row(id));
    await this.db
      .updateTable("workspaces")
      .set({ desired_state: "stopped", idle_stopped_at: idle ? new Date().toISOString() : null })
      .where("id", "=", id)
      .execute();
    await this.setTransient(id, { status: "stopping" });
    this.daemons.reset(id);
    try {
      await saveTerminalScreens(this.driver, id);
      await this.driver.stop(id);
      this.activity.forget(id);
      await this.setTransient(id, undefined);
    } catch (err) {
      await this.setTransient(id, { status: "error", detail: (err as Error).message });
    }
    return this.get(id);
  }

  /**
   * Deletes the workspace and everything of it; answers once that is gone. A creation or start
   * under way is cancelled first, here or, through its row, on the instance running it (which then
   * removes what it made). The tombstone written before anything else lets the next start finish a
   * delete the service did not live to finish.
   */
  async remove(id: string): Promise<void> {
    const row = await this.row(id);
    const builder = this.shared.builder(row, await this.shared.liveFor([row]));
    // Aborted before the tombstone is written, so the run never takes the delete for another's.
    this.creations.abort(id, DELETED_HERE);
    await this.tombstones.bury(id, builder ?? null);
    if (builder) return this.awaitBuilderCleanup(id, builder);
    await this.putTransient(id, { status: "stopping" });
    await this.creations.settled(id);
    // A clone or unpack still writing holds the volume: end it first.
    await this.importer.cancel(id);
    try {
      await this.finishDelete(id);
    } catch (err) {
      await this.setTransient(id, { status: "error", detail: `delete failed: ${(err as Error).message}` });
      throw err;
    }
  }

  /** Removes everything of the workspace, then its row and tombstone, and tells everyone. */
  private async finishDelete(id: string): Promise<void> {
    this.daemons.disconnect(id);
    await this.driver.remove(id);
    await this.tombstones.finish(id);
    this.transient.delete(id);
    this.activity.forget(id);
    this.imports.forget(id);
    this.daemons.forget(id);
    this.events.publish({ type: "deleted", workspaceId: id });
    this.announce(id);
  }

  /**
   * The workspace is being made by another live instance: its row goes now (the instance hears of
   * it and stops at its next step), and the delete answers once that instance has removed what it
   * made, or, should it die meanwhile, once this one has.
   */
  private async awaitBuilderCleanup(id: string, builder: string): Promise<void> {
    await this.db.deleteFrom("workspaces").where("id", "=", id).execute();
    this.events.publish({ type: "deleted", workspaceId: id });
    this.announce(id);
    const deadline = Date.now() + CLEANER_WAIT_MS;
    while ((await this.tombstones.cleaner(id)) !== undefined && Date.now() < deadline) {
      if (!(await this.shared.isLive(builder))) return this.finishDelete(id);
      await sleep(CLEANER_POLL_MS);
    }
  }

  private announce(id: string): void {
    this.bus
      .notify("workspace", id)
      .catch((err: Error) => this.log(`announcing workspace ${id}: ${err.message}`));
  }

  /** Refuses while the workspace is being created, started or stopped, here or by another instance. */
  private async assertIdle(row: WorkspaceTable): Promise<void> {
    const t = this.transient.get(row.id) ?? this.shared.read(row, await this.shared.liveFor([row]));
    if (t && t.status !== "error")
      throw new WorkspaceError("busy", `the workspace is ${t.status}; wait a moment`);
  }
}
