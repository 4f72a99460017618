import type { Db } from "../db/database";
import type { WorkspaceService } from "./workspace-service";

/** The longest time between two looks at the running workspaces. */
const MAX_CHECK_MS = 60_000;
const MIN_CHECK_MS = 250;

/**
 * Stops workspaces that nothing has used for `idleMs` (CODER_IDLE_STOP_SECONDS): no open socket, no
 * subscription, no agent turn running, no call (see activity.ts). Their status then says they were
 * stopped for being idle, and opening one starts it again. Each instance writes the last use it
 * saw into the workspace's row and stops only what no instance has used for that long.
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
    const rows = await this.db.selectFrom("workspaces").select(["id", "last_used_at"]).execute();
    const stored = new Map(rows.map((r) => [r.id, r.last_used_at ? Date.parse(r.last_used_at) : 0]));
    const running = (await this.workspaces.list()).filter((w) => w.status === "running");
    // A call on a stopped or deleted workspace still touched it: keep clocks of running ones only.
    activity.retainOnly(new Set(running.map((w) => w.id)));
    for (const workspace of running) {
      const now = Date.now();
      const seenHere = now - activity.idleMs(workspace.id);
      const seenAnywhere = stored.get(workspace.id) ?? 0;
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
      if (now - Math.max(seenHere, seenAnywhere) < this.idleMs) continue;
      this.log(`workspace ${workspace.id}: stopping it, unused for ${Math.round(this.idleMs / 1000)} s`);
      await this.workspaces.stop(workspace.id, { idle: true });
    }
  }
}
