import type { Db } from "../db/database";
import { normalEmail } from "./accounts";
import { passwordMatches } from "./password-hash";

/** What a right password signs in: the account, and whether it is suspended (then it may not). */
export interface PasswordAccount {
  userId: string;
  suspended: boolean;
}

/** Sets (or replaces) the argon2id hash of `userId`'s password, inside the caller's transaction. */
export async function storePasswordHash(db: Db, userId: string, hash: string): Promise<void> {
  await db.deleteFrom("user_passwords").where("user_id", "=", userId).execute();
  await db
    .insertInto("user_passwords")
    .values({ user_id: userId, hash, updated_at: new Date().toISOString() })
    .execute();
}

/**
 * Signing in with an e-mail address and a password. Only the hash is stored (argon2id,
 * password-hash.ts); an unknown address, an account without a password and a wrong password all
 * cost one hash check and give the same null, so the answer tells nothing about which accounts exist.
 */
export class Passwords {
  constructor(private readonly db: Db) {}

  /** The account `password` opens, or null. A suspended account is told apart only after a right password. */
  async check(email: string, password: string): Promise<PasswordAccount | null> {
    const row = await this.db
      .selectFrom("users")
      .leftJoin("user_passwords", "user_passwords.user_id", "users.id")
      .select(["users.id", "users.suspended_at", "user_passwords.hash"])
      .where("users.email", "=", normalEmail(email))
      .executeTakeFirst();
    if (!(await passwordMatches(row?.hash ?? null, password)) || !row) return null;
    return { userId: row.id, suspended: row.suspended_at !== null };
  }
}
