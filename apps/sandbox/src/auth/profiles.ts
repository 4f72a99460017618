import type { Db } from "../db/database";

/** What a person changes about their own account. */
export class Profiles {
  constructor(private readonly db: Db) {}

  /** The name everyone sees for `userId` from their next call or connection on. */
  async rename(userId: string, displayName: string): Promise<void> {
    await this.db.updateTable("users").set({ display_name: displayName }).where("id", "=", userId).execute();
  }
}
