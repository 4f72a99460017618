import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { inject } from "vitest";
import { type DatabaseSettings, type Db, openDatabase } from "../database";
import type { SqlDialect } from "../sql-dialect";

/** The dialects every database test runs on: `describe.each(DIALECTS)`. */
export const DIALECTS: readonly SqlDialect[] = ["sqlite", "postgres"];

export interface TestDatabase {
  /** What `openDatabase` (or a service's config) needs to reach this database. */
  settings: DatabaseSettings;
  db: Db;
  /** Another, independent connection to the same database (another process, another instance). */
  connect(): Promise<Db>;
  close(): Promise<void>;
}

async function onServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(inject("postgresUrl"));
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the run's PostgreSQL server; returns its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const name = `coder_${randomBytes(6).toString("hex")}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(inject("postgresUrl"));
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a test database once the connections just closed have gone (each is ~8 MB on disk). */
async function dropPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await onServer(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        // 55006: still in use, by a connection whose close is under way.
        if ((error as { code?: string }).code !== "55006" || attempt >= 100) throw error;
        await sleep(50);
      }
    }
  });
}

/**
 * A new, migrated database of `dialect` for one test: SQLite in a temporary folder, or a database
 * of its own on the test run's PostgreSQL server (db/testing/postgres-global-setup.ts).
 */
export async function openTestDatabase(dialect: SqlDialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-db-"));
  const settings: DatabaseSettings = {
    dataDir,
    ...(dialect === "postgres" ? { databaseUrl: await createPostgresDatabase() } : {}),
  };
  const db = await openDatabase(settings);
  const others: Db[] = [];
  return {
    settings,
    db,
    async connect() {
      const other = await openDatabase(settings);
      others.push(other);
      return other;
    },
    async close() {
      for (const other of others) await other.destroy();
      await db.destroy();
      if (settings.databaseUrl) await dropPostgresDatabase(settings.databaseUrl);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
