import type { TurnDiff, TurnRef } from "@coder/protocol";
import type { Db } from "../../db/database";
import { AgentError } from "../errors";
import type { EventLog } from "../events/event-log";
import type { SnapshotPort } from "../workspace/workspace-port";
import { TurnSnapshotStore, type TurnSnapshots } from "./turn-snapshot-store";

export interface RevertResult {
  reverted: boolean;
  /** Files written back. */
  restored: string[];
  /** Files removed. */
  removed: string[];
}

const NO_CHANGES: TurnDiff = { files: [], patch: "", truncated: false };

/**
 * A turn's diff, its revert and the undoing of that revert, from the snapshots taken around it.
 * Revert restores the "before" state of the files the turn changed; undo brings the "after"
 * state back. Either touches only those files, so a person's own edits elsewhere stay.
 */
export class TurnChanges {
  private readonly store: TurnSnapshotStore;

  constructor(
    db: Db,
    private readonly events: EventLog,
    private readonly snapshots: (sessionId: string) => Promise<SnapshotPort>,
  ) {
    this.store = new TurnSnapshotStore(db);
  }

  async diff(ref: TurnRef): Promise<TurnDiff> {
    const turn = await this.store.find(ref.sessionId, ref.turnId);
    if (!turn || turn.before === turn.after) return NO_CHANGES;
    return (await this.snapshots(ref.sessionId)).diff(turn.before, turn.after);
  }

  async revert(ref: TurnRef): Promise<RevertResult> {
    const turn = await this.changed(ref);
    if (turn.reverted) throw new AgentError("precondition", "this turn is already reverted");
    return this.apply(turn, turn.before, turn.after, true);
  }

  async undoRevert(ref: TurnRef): Promise<RevertResult> {
    const turn = await this.changed(ref);
    if (!turn.reverted) throw new AgentError("precondition", "this turn is not reverted");
    return this.apply(turn, turn.after, turn.before, false);
  }

  private async changed(ref: TurnRef): Promise<TurnSnapshots> {
    const turn = await this.store.find(ref.sessionId, ref.turnId);
    if (!turn || turn.before === turn.after) {
      throw new AgentError("precondition", "this turn changed no files, so there is nothing to revert");
    }
    return turn;
  }

  private async apply(
    turn: TurnSnapshots,
    from: string,
    to: string,
    reverted: boolean,
  ): Promise<RevertResult> {
    const { restored, removed } = await (await this.snapshots(turn.sessionId)).restore(from, to);
    await this.store.setReverted(turn.turnId, reverted);
    await this.events.append(turn.sessionId, {
      type: "turn.changes",
      turnId: turn.turnId,
      changedFiles: true,
      reverted,
    });
    return { reverted, restored, removed };
  }
}
