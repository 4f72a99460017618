import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { migrationProvider } from "./migrations";
import type { Database } from "./schema";

export type Db = Kysely<Database>;

/**
 * Opens (creating if needed) the SQLite database in the data folder and brings its schema up to
 * date. WAL mode keeps readers from blocking the writer; `synchronous = FULL` makes a committed
 * write survive a crash of the service, which is what "committed before acknowledged" needs.
 */
export async function openDatabase(dataDir: string): Promise<Db> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sqlite = new SQLite(path.join(dataDir, "coder.db"));
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return db;
}
