import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { ServiceInstance } from "./service-instance";

const TIMING = { beatMs: 100, staleMs: 500 };

describe("a service instance on SQLite", () => {
  let database: TestDatabase | undefined;
  const started: ServiceInstance[] = [];
  afterEach(async () => {
    for (const instance of started.splice(0)) instance.abandon();
    await database?.close();
  });

  const start = async (db: TestDatabase["db"]) => {
    const instance = new ServiceInstance(db, false, TIMING);
    await instance.start();
    started.push(instance);
    return instance;
  };

  it("refuses to start beside another live instance on the same file, saying what to do", async () => {
    database = await openTestDatabase("sqlite");
    const first = await start(database.db);
    const second = new ServiceInstance(await database.connect(), false, TIMING);
    await expect(second.start()).rejects.toThrow(
      `another service instance (${first.id}) is running on this SQLite database; stop it first, or give several instances one PostgreSQL database (CODER_DATABASE_URL)`,
    );
  });

  it("starts after an instance that was killed (its row left, its heartbeat stopped) and after one that stopped", async () => {
    database = await openTestDatabase("sqlite");
    (await start(database.db)).abandon();
    const restarted = await start(await database.connect());
    await restarted.stop();
    await start(await database.connect());
  });
});
