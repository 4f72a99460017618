import type { TurnSummary } from "@coder/protocol";
import type { Db } from "../../db/database";
import { toTurn } from "../store/session-store";

/** Every turn of a session, oldest first, with whether it changed files and is reverted. */
export async function turnSummaries(db: Db, sessionId: string): Promise<TurnSummary[]> {
  const rows = await db
    .selectFrom("turns")
    .leftJoin("turn_snapshots", "turn_snapshots.turn_id", "turns.id")
    .selectAll("turns")
    .select(["turn_snapshots.before_id", "turn_snapshots.after_id", "turn_snapshots.reverted"])
    .where("turns.session_id", "=", sessionId)
    .orderBy("turns.started_at")
    .orderBy("turns.id")
    .execute();
  return rows.map(({ before_id, after_id, reverted, ...turn }) => ({
    ...toTurn(turn),
    changedFiles: before_id !== null && before_id !== after_id,
    reverted: reverted === 1,
  }));
}
