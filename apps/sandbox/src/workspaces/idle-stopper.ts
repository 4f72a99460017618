import type { Db } from "../db/database";
import type { WorkspaceService } from "./workspace-service";

/** The longest time between two looks at the running workspaces. */
const MAX_CHECK_MS = 60_000;
const MIN_CHECK_MS = 250;

/**
 * Stops workspaces that nothing has used for `idleMs` (CODER_IDLE_STOP_SECONDS): no open socket, no
 * subscription, no agent turn running, no call (see activity.ts). Their status then says they were
 * stopped for being idle, and opening one starts it again. Each instance writes the last use it
 * saw into the workspace's row and stops only what no instance has used for that long; the stop
 * itself is claimed in the row first, so exactly one instance carries it out.
 */
export class IdleStopper {
  private readonly every: number;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly idleMs: number,
    private readonly log: (line: string) => void,
  ) {
    // A quarter of the idle time between looks: a workspace stops at most 25% late.
    this.every = Math.min(MAX_CHECK_MS, Math.max(MIN_CHECK_MS, idleMs / 4));
  }

  start(): void {
    if (this.idleMs <= 0) return;
    this.timer = setInterval(() => {
      this.checking ??= this.check()
        .catch((err: Error) => this.log(`idle stop: ${err.message}`))
        .finally(() => {
          this.checking = undefined;
        });
    }, this.every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
  }

  private async check(): Promise<void> {
    const { activity } = this.workspaces;
    const rows = new Map(
      (
        await this.db
          .selectFrom("workspaces")
          .select(["id", "last_used_at", "desired_state", "idle_stopped_at"])
          .execute()
      ).map((r) => [r.id, r]),
    );
    const running = (await this.workspaces.list()).filter((w) => w.status === "running");
    // A call on a stopped or deleted workspace still touched it: keep clocks of running ones only.
    activity.retainOnly(new Set(running.map((w) => w.id)));
    for (const workspace of running) {
      const row = rows.get(workspace.id);
      if (!row) continue;
      const now = Date.now();
      const seenHere = now - activity.idleMs(workspace.id);
      const seenAnywhere = row.last_used_at ? Date.parse(row.last_used_at) : 0;
      // Tell the other instances, at most once per look.
      if (seenHere > seenAnywhere + this.every) {
        await this.db
          .updateTable("workspaces")
          .set({ last_used_at: new Date(seenHere).toISOString() })
          .where("id", "=", workspace.id)
          .where((eb) =>
            eb.or([
              eb("last_used_at", "is", null),
              eb("last_used_at", "<", new Date(seenHere).toISOString()),
            ]),
          )
          .execute();
      }
      const mine =
        row.desired_state === "running"
          ? now - Math.max(seenHere, seenAnywhere) >= this.idleMs && (await this.claim(workspace.id, now))
          : await this.takeOver(row, now);
      if (!mine) continue;
      this.log(`workspace ${workspace.id}: stopping it, unused for ${Math.round(this.idleMs / 1000)} s`);
      // One failure (a start under way meanwhile) leaves the others of this look to be stopped.
      await this.workspaces
        .stop(workspace.id, { idle: true })
        .catch((err: Error) => this.log(`idle stop of ${workspace.id}: ${err.message}`));
    }
  }

  /**
   * Makes this instance the one that stops the workspace: every instance looks at every workspace
   * (wherever it runs), and of those that find it idle at once, the one whose write lands first
   * wins; none does once another instance wrote a later use than the idle time allows.
   */
  private async claim(id: string, now: number): Promise<boolean> {
    const claimed = await this.db
      .updateTable("workspaces")
      .set({ desired_state: "stopped", idle_stopped_at: new Date(now).toISOString() })
      .where("id", "=", id)
      .where("desired_state", "=", "running")
      .where((eb) =>
        eb.or([
          eb("last_used_at", "is", null),
          eb("last_used_at", "<=", new Date(now - this.idleMs).toISOString()),
        ]),
      )
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /**
   * A running workspace already claimed for an idle stop a whole idle time ago, that no instance is
   * stopping (it would show "stopping"): its claimer ended before it stopped it. One instance takes
   * the stop over, by the same kind of write.
   */
  private async takeOver(row: { id: string; idle_stopped_at: string | null }, now: number): Promise<boolean> {
    const claimedAt = row.idle_stopped_at;
    if (!claimedAt || now - Date.parse(claimedAt) < this.idleMs) return false;
    const taken = await this.db
      .updateTable("workspaces")
      .set({ idle_stopped_at: new Date(now).toISOString() })
      .where("id", "=", row.id)
      .where("desired_state", "=", "stopped")
      .where("idle_stopped_at", "=", claimedAt)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }
}
