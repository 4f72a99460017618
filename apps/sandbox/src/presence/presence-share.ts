import { z } from "zod";
import type { ServiceInstance } from "../cluster/service-instance";
import type { Db } from "../db/database";
import type { LiveBus } from "../events/live-bus";

/** One person as one instance has them on a workspace: what the other instances show of them. */
export const sharedPerson = z.object({
  /** Who they are across instances (their login), never shown to a browser. */
  key: z.string().max(200),
  name: z.string().max(200),
  role: z.enum(["viewer", "editor", "owner"]),
  file: z.string().max(4096).nullable(),
  /** When they last said what they show (ms, wall clock): their file is from their latest tab. */
  touched: z.number(),
  /** When they came (ms): colours and order follow it, the same on every instance. */
  since: z.number(),
  /** Set on the agent at work: who prompted its turn. */
  agent: z.object({ for: z.string().max(200).nullable() }).optional(),
});
export type SharedPerson = z.infer<typeof sharedPerson>;

const boardRow = z.array(sharedPerson).max(1000);

/**
 * The presence boards of the other service instances on the database: each instance writes the
 * people it holds per workspace into one row (`presence_boards`) and announces it on the live bus
 * (topic `presence`); the others re-read. Rows of instances whose heartbeat stopped are left out.
 */
export class PresenceShare {
  constructor(
    private readonly db: Db,
    private readonly bus: LiveBus,
    private readonly instance: ServiceInstance,
  ) {}

  /** Writes this instance's people on the workspace (none: its row goes) and tells the others. */
  async publish(workspaceId: string, people: readonly SharedPerson[]): Promise<void> {
    const row = { instance_id: this.instance.id, workspace_id: workspaceId };
    if (people.length === 0) {
      await this.db
        .deleteFrom("presence_boards")
        .where("instance_id", "=", row.instance_id)
        .where("workspace_id", "=", workspaceId)
        .execute();
    } else {
      const values = { ...row, people: JSON.stringify(people), updated_at: new Date().toISOString() };
      await this.db
        .insertInto("presence_boards")
        .values(values)
        .onConflict((c) =>
          c
            .columns(["instance_id", "workspace_id"])
            .doUpdateSet({ people: values.people, updated_at: values.updated_at }),
        )
        .execute();
    }
    await this.bus.notify("presence", workspaceId);
  }

  /** The people the other live instances have on the workspace. */
  async others(workspaceId: string): Promise<SharedPerson[]> {
    const [rows, live] = await Promise.all([
      this.db
        .selectFrom("presence_boards")
        .select(["instance_id", "people"])
        .where("workspace_id", "=", workspaceId)
        .where("instance_id", "!=", this.instance.id)
        .execute(),
      this.instance.live(),
    ]);
    const dead = rows.filter((row) => !live.has(row.instance_id)).map((row) => row.instance_id);
    // An instance that died left its rows: the first to notice removes them.
    if (dead.length > 0)
      void this.db
        .deleteFrom("presence_boards")
        .where("instance_id", "in", dead)
        .execute()
        .catch(() => undefined);
    return rows
      .filter((row) => live.has(row.instance_id))
      .flatMap((row) => boardRow.safeParse(JSON.parse(row.people)).data ?? []);
  }

  /** Calls `listener` with the workspace (null: any) whenever another instance's board changed. */
  listen(listener: (workspaceId: string | null) => void): () => void {
    return this.bus.listen("presence", (notice) => {
      if (!notice.local) listener(notice.key);
    });
  }

  /** This instance's rows go (it stops), and the others hear of it. */
  async clear(): Promise<void> {
    const rows = await this.db
      .deleteFrom("presence_boards")
      .where("instance_id", "=", this.instance.id)
      .returning("workspace_id")
      .execute();
    for (const { workspace_id } of rows) await this.bus.notify("presence", workspace_id);
  }
}
