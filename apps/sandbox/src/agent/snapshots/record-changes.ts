import type { Db } from "../../db/database";
import type { SessionRecorder } from "../events/recorder";
import type { ChangeTracker } from "./change-tracker";
import { TurnSnapshotStore } from "./turn-snapshot-store";

/**
 * At the end of a turn: takes its "after" snapshot, stores the pair and tells watchers whether
 * the turn changed files. Returns the pair (undefined when the turn has none).
 */
export async function recordTurnChanges(
  db: Db,
  recorder: SessionRecorder,
  turnId: string,
  tracker: ChangeTracker,
  log: (line: string) => void,
): Promise<{ before: string; after: string } | undefined> {
  const snapshots = await tracker.finish();
  if (!snapshots) return undefined;
  try {
    await new TurnSnapshotStore(db).save({ turnId, sessionId: recorder.sessionId, ...snapshots });
    recorder.post({
      type: "turn.changes",
      turnId,
      changedFiles: snapshots.before !== snapshots.after,
      reverted: false,
    });
    return snapshots;
  } catch (error) {
    log(`turn ${turnId}: could not store its snapshots: ${(error as Error).message}`);
    return undefined;
  }
}
