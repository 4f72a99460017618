import { TALK_KEPT_MESSAGES } from "@coder/protocol";
import type { Db } from "../db/database";
import type { TalkLineTable } from "../db/schema";
import type { Speaker } from "./speaker";

export type LineKind = TalkLineTable["kind"];

/** A line as stored, with who it is by or about. */
export interface StoredLine {
  id: number;
  kind: LineKind;
  speaker: Speaker;
  text: string | null;
  at: string;
}

/** Refuses a line from someone the room's setting does not let write. */
export type WriteCheck = (viewersMayWrite: boolean) => void;

const toLine = (row: Omit<TalkLineTable, "id" | "workspace_id"> & { id: number }): StoredLine => ({
  id: row.id,
  kind: row.kind,
  speaker: { key: row.person_key, name: row.person_name, role: row.person_role, guest: row.guest === 1 },
  text: row.text,
  at: row.created_at,
});

const COLUMNS = [
  "id",
  "kind",
  "person_key",
  "person_name",
  "person_role",
  "guest",
  "text",
  "created_at",
] as const;

/**
 * The people's talk of each workspace in the database (tables `talk_rooms` and `talk_lines`, both
 * deleted with the workspace): the latest TALK_KEPT_MESSAGES lines and the owner's setting.
 */
export class TalkStore {
  constructor(private readonly db: Db) {}

  /**
   * Stores a line, after `check` accepted the room's setting, and deletes the lines beyond the
   * kept number. The room's row is held until commit, so a workspace's ids commit in the order they
   * were handed out (a reader "after id N" never skips one) and a setting changed meanwhile either
   * came before the check or waits for the line.
   */
  async append(
    workspaceId: string,
    kind: LineKind,
    speaker: Speaker,
    text: string | null,
    check: WriteCheck = () => {},
  ): Promise<StoredLine> {
    return this.db.transaction().execute(async (trx) => {
      const room = await trx
        .insertInto("talk_rooms")
        .values({ workspace_id: workspaceId, viewers_may_write: 1 })
        .onConflict((c) =>
          c
            .column("workspace_id")
            .doUpdateSet((eb) => ({ viewers_may_write: eb.ref("talk_rooms.viewers_may_write") })),
        )
        .returning("viewers_may_write")
        .executeTakeFirstOrThrow();
      check(room.viewers_may_write === 1);
      const row = await trx
        .insertInto("talk_lines")
        .values({
          workspace_id: workspaceId,
          kind,
          person_key: speaker.key,
          person_name: speaker.name,
          person_role: speaker.role,
          guest: speaker.guest ? 1 : 0,
          text,
          created_at: new Date().toISOString(),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      const oldestKept = await trx
        .selectFrom("talk_lines")
        .select("id")
        .where("workspace_id", "=", workspaceId)
        .orderBy("id", "desc")
        .offset(TALK_KEPT_MESSAGES - 1)
        .limit(1)
        .executeTakeFirst();
      if (oldestKept) {
        await trx
          .deleteFrom("talk_lines")
          .where("workspace_id", "=", workspaceId)
          .where("id", "<", oldestKept.id)
          .execute();
      }
      return toLine(row);
    });
  }

  /** The lines after `afterId`, oldest first; with null the latest kept ones. */
  async lines(workspaceId: string, afterId: number | null): Promise<StoredLine[]> {
    let query = this.db
      .selectFrom("talk_lines")
      .select(COLUMNS)
      .where("workspace_id", "=", workspaceId)
      .orderBy("id", "desc")
      .limit(TALK_KEPT_MESSAGES);
    if (afterId !== null) query = query.where("id", ">", afterId);
    return (await query.execute()).reverse().map(toLine);
  }

  /** The owner's setting (viewers write unless the owner turned it off). */
  async viewersMayWrite(workspaceId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("talk_rooms")
      .select("viewers_may_write")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    return (row?.viewers_may_write ?? 1) === 1;
  }

  async setViewersMayWrite(workspaceId: string, allowed: boolean): Promise<void> {
    const value = allowed ? 1 : 0;
    await this.db
      .insertInto("talk_rooms")
      .values({ workspace_id: workspaceId, viewers_may_write: value })
      .onConflict((c) => c.column("workspace_id").doUpdateSet({ viewers_may_write: value }))
      .execute();
  }
}
