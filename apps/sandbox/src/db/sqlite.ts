import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type SqliteDatabase, SqliteDialect } from "kysely";
import { LRUCache } from "lru-cache";

/** Distinct SQL texts kept prepared (a query with an `in (…)` list makes one per list length). */
const PREPARED_STATEMENTS = 500;

/**
 * The database as Kysely sees it, preparing each SQL text once: Kysely asks for a new statement
 * for every query it runs, and preparing one cost more than running the per-request lookups.
 */
function preparedOnce(sqlite: SQLite.Database): SqliteDatabase {
  const prepared = new LRUCache<string, SQLite.Statement>({ max: PREPARED_STATEMENTS });
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = prepared.get(sql);
      // One still being iterated (a streamed query) cannot run again before it finishes.
      if (!statement || statement.busy) {
        statement = sqlite.prepare(sql);
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}

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
  return new SqliteDialect({ database: preparedOnce(sqlite) });
}
