import { Kysely, Migrator } from "kysely";
import { migrationProvider } from "./migrations";
import { nulFreeStrings, postgresDialect } from "./postgres";
import type { Database } from "./schema";
import type { SqlDialect } from "./sql-dialect";
import { sqliteDialect } from "./sqlite";

export type Db = Kysely<Database>;

export interface DatabaseSettings {
  /** The SQLite database lives here when there is no `databaseUrl`. */
  dataDir: string;
  /** `postgres://…`: the service runs on that PostgreSQL database instead (CODER_DATABASE_URL). */
  databaseUrl?: string | undefined;
}

export const dialectOf = (settings: DatabaseSettings): SqlDialect =>
  settings.databaseUrl ? "postgres" : "sqlite";

/**
 * Opens the database (SQLite in the data folder by default, PostgreSQL when a URL is configured)
 * and brings its schema up to date.
 */
export async function openDatabase(
  settings: DatabaseSettings,
  log: (line: string) => void = console.error,
): Promise<Db> {
  const dialect = dialectOf(settings);
  const db =
    dialect === "postgres"
      ? new Kysely<Database>({
          dialect: postgresDialect(settings.databaseUrl ?? "", log),
          plugins: [nulFreeStrings],
        })
      : new Kysely<Database>({ dialect: sqliteDialect(settings.dataDir) });
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider(dialect),
  }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return db;
}
