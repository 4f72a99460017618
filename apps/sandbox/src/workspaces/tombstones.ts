import type { Db } from "../db/database";

/**
 * Deletes asked for and not yet known to be carried out. A delete writes its tombstone before it
 * touches anything and clears it once everything labelled with the workspace's id is gone, so a
 * service that dies in between (or a creation on another instance that is still making things)
 * leaves a record that the next start (or that instance) finishes.
 */
export class WorkspaceTombstones {
  constructor(private readonly db: Db) {}

  /** Records the delete of `id`; `cleaner`: the instance creating it, which removes what it made. */
  async bury(id: string, cleaner: string | null = null): Promise<void> {
    await this.db
      .insertInto("workspace_tombstones")
      .values({ id, deleted_at: new Date().toISOString(), cleaner })
      .onConflict((oc) => oc.column("id").doUpdateSet({ cleaner }))
      .execute();
  }

  /** Whether a delete of `id` was asked for and is not finished. */
  async has(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("workspace_tombstones")
      .select("id")
      .where("id", "=", id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The instance that promised to clean `id` up; undefined when there is no tombstone. */
  async cleaner(id: string): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom("workspace_tombstones")
      .select("cleaner")
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? row.cleaner : undefined;
  }

  async list(): Promise<{ id: string; cleaner: string | null }[]> {
    return this.db.selectFrom("workspace_tombstones").select(["id", "cleaner"]).execute();
  }

  /** The delete is finished: the workspace's row and its tombstone go together. */
  async finish(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("workspaces").where("id", "=", id).execute();
      await trx.deleteFrom("workspace_tombstones").where("id", "=", id).execute();
    });
  }
}
