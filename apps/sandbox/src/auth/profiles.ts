import type { Db } from "../db/database";

/** What a person changes about their own account. */
export class Profiles {
  constructor(private readonly db: Db) {}

  /** The account's e-mail address (a commit's author address); null when it has none. */
  async email(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
    return row?.email ?? null;
  }

  /** The name everyone sees for `userId` from their next call or connection on. */
  async rename(userId: string, displayName: string): Promise<void> {
    await this.db.updateTable("users").set({ display_name: displayName }).where("id", "=", userId).execute();
  }
}
