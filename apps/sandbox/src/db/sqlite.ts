import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { SqliteDialect } from "kysely";

/**
 * The embedded database: `coder.db` in the data folder. WAL mode keeps readers from blocking the
 * writer; `synchronous = FULL` makes a committed write survive a crash of the service, which is
 * what "committed before acknowledged" needs.
 */
export function sqliteDialect(dataDir: string): SqliteDialect {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sqlite = new SQLite(path.join(dataDir, "coder.db"));
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  return new SqliteDialect({ database: sqlite });
}
