import { type ImportProgress, importProgress, type WorkspaceStatus, workspaceStatus } from "@coder/protocol";
import { z } from "zod";
import type { ServiceInstance } from "../cluster/service-instance";
import type { Db } from "../db/database";
import type { WorkspaceTable } from "../db/schema";

/** What a workspace goes through for a few seconds (creating, starting, stopping) or a failure. */
export type Transient = { status: WorkspaceStatus; detail?: string; progress?: ImportProgress };

/** A transient state in its row: the state, and the instance doing the work. */
const storedTransient = z.object({
  status: workspaceStatus,
  detail: z.string().max(10_000).optional(),
  progress: importProgress.optional(),
  instance: z.string().max(64),
});

/**
 * Transient states for the other service instances on the database: the instance doing the work
 * keeps the state in memory and writes it into the workspace's row (`transient`), so a page
 * connected to another instance shows "creating" and an import's progress too, instead of the
 * engine's view (and never takes an import under way for one a stopped service left behind). A
 * state whose instance stopped beating counts for nothing. Alone on its database, nothing is
 * written.
 */
export class SharedTransients {
  /** Per workspace, the last write: writes land in the order they were made. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly instance: ServiceInstance | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** Writes the workspace's state (none: clears it) for the others; resolves once it is written. */
  save(id: string, transient: Transient | undefined): Promise<void> {
    const instance = this.instance;
    if (!instance?.shared) return Promise.resolve();
    const value = transient ? JSON.stringify({ ...transient, instance: instance.id }) : null;
    const write = (this.writes.get(id) ?? Promise.resolve())
      .then(() => this.db.updateTable("workspaces").set({ transient: value }).where("id", "=", id).execute())
      .then(
        () => undefined,
        (error: Error) => this.log(`workspace ${id}: saving its state: ${error.message}`),
      );
    this.writes.set(id, write);
    void write.then(() => {
      if (this.writes.get(id) === write) this.writes.delete(id);
    });
    return write;
  }

  /** The instances alive now, when one of `rows` carries another's state (no query otherwise). */
  async liveFor(rows: readonly WorkspaceTable[]): Promise<Set<string> | undefined> {
    if (!this.instance?.shared || !rows.some((row) => row.transient)) return undefined;
    return this.instance.live();
  }

  /** The state another live instance put on the row, if any. */
  read(row: WorkspaceTable, live: Set<string> | undefined): Transient | undefined {
    const parsed = this.othersState(row, live);
    if (!parsed) return undefined;
    const { instance: _, ...transient } = parsed;
    return transient;
  }

  /** The other live instance that is creating or starting the workspace of `row`, if any. */
  builder(row: WorkspaceTable, live: Set<string> | undefined): string | undefined {
    const parsed = this.othersState(row, live);
    return parsed?.status === "creating" || parsed?.status === "starting" ? parsed.instance : undefined;
  }

  /** Whether the instance `id` still beats (this one always does). */
  async isLive(id: string): Promise<boolean> {
    if (!this.instance?.shared) return id === this.instance?.id;
    return (await this.instance.live()).has(id);
  }

  private othersState(
    row: WorkspaceTable,
    live: Set<string> | undefined,
  ): z.infer<typeof storedTransient> | undefined {
    if (!row.transient || !live) return undefined;
    let parsed: z.infer<typeof storedTransient> | undefined;
    try {
      parsed = storedTransient.safeParse(JSON.parse(row.transient)).data;
    } catch {
      return undefined;
    }
    if (!parsed || parsed.instance === this.instance?.id || !live.has(parsed.instance)) return undefined;
    return parsed;
  }
}
