import type { Db } from "../../db/database";
import type { TurnSnapshotTable } from "../../db/schema";

/** The snapshots around a turn and whether its changes are reverted. */
export interface TurnSnapshots {
  turnId: string;
  sessionId: string;
  before: string;
  after: string;
  reverted: boolean;
}

const fromRow = (row: TurnSnapshotTable): TurnSnapshots => ({
  turnId: row.turn_id,
  sessionId: row.session_id,
  before: row.before_id,
  after: row.after_id,
  reverted: row.reverted === 1,
});

/** The turn_snapshots table. */
export class TurnSnapshotStore {
  constructor(private readonly db: Db) {}

  async save(snapshots: Omit<TurnSnapshots, "reverted">): Promise<void> {
    await this.db
      .insertInto("turn_snapshots")
      .values({
        turn_id: snapshots.turnId,
        session_id: snapshots.sessionId,
        before_id: snapshots.before,
        after_id: snapshots.after,
        reverted: 0,
      })
      .execute();
  }

  async find(sessionId: string, turnId: string): Promise<TurnSnapshots | undefined> {
    const row = await this.db
      .selectFrom("turn_snapshots")
      .selectAll()
      .where("turn_id", "=", turnId)
      .where("session_id", "=", sessionId)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async setReverted(turnId: string, reverted: boolean): Promise<void> {
    await this.db
      .updateTable("turn_snapshots")
      .set({ reverted: reverted ? 1 : 0 })
      .where("turn_id", "=", turnId)
      .execute();
  }

  /** Every turn of a session that has snapshots, by turn id. */
  async forSession(sessionId: string): Promise<Map<string, TurnSnapshots>> {
    const rows = await this.db
      .selectFrom("turn_snapshots")
      .selectAll()
      .where("session_id", "=", sessionId)
      .execute();
    return new Map(rows.map((r) => [r.turn_id, fromRow(r)]));
  }
}

/** Whether the files differed after the turn (the snapshot ids are tree hashes). */
export const changedFiles = (s: TurnSnapshots | undefined): boolean => !!s && s.before !== s.after;
