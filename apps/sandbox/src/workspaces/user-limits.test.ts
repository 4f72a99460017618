import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Accounts } from "../auth/accounts";
import { loadConfig } from "../config";
import { DEFAULT_LIMITS } from "../config/limits";
import type { Db } from "../db/database";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { addWorkspaceRow } from "../db/testing/workspace-rows";
import { UserLimits } from "./user-limits";

describe("CODER_DEFAULT_LIMITS", () => {
  it("keeps the defaults for what it leaves out and stops the start on a wrong value, naming the variable", () => {
    expect(loadConfig({ CODER_IMAGE: "img" }).defaultLimits).toEqual(DEFAULT_LIMITS);
    expect(
      loadConfig({ CODER_IMAGE: "img", CODER_DEFAULT_LIMITS: " running=1 , cpus=1.5" }).defaultLimits,
    ).toEqual({
      ...DEFAULT_LIMITS,
      running: 1,
      cpus: 1.5,
    });
    for (const wrong of ["running=three", "runing=3", "running", "memoryMb=-1", "workspaces=1.5"]) {
      expect(() => loadConfig({ CODER_IMAGE: "img", CODER_DEFAULT_LIMITS: wrong }), wrong).toThrow(
        /CODER_DEFAULT_LIMITS/,
      );
    }
  });
});

describe.each(DIALECTS)("a person's limits on %s", (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let userId: string;
  const size = { memoryMb: 1024, cpus: 1, diskMb: 2048 };
  const limitsOf = (limits: Partial<typeof DEFAULT_LIMITS>) =>
    new UserLimits(
      db,
      { workspaces: 100, running: 100, memoryMb: 1e6, cpus: 1e3, diskMb: 1e7, ...limits },
      size,
    );
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
    userId = (
      await new Accounts(db).create({ email: "ada@example.com", displayName: "Ada", siteRole: "member" })
    ).id;
  });
  afterEach(async () => {
    await database.close();
  });

  it("refuses a new workspace past the workspace limit, saying how many and to delete one", async () => {
    await addWorkspaceRow(db, "w1", { ownerId: userId, state: "stopped" });
    await addWorkspaceRow(db, "w2", { ownerId: userId, state: "stopped" });
    await expect(limitsOf({ workspaces: 2 }).admitCreate(userId)).rejects.toMatchObject({
      kind: "too_many",
      message: "you have 2 of 2 workspaces; delete one to create another",
    });
    await expect(limitsOf({ workspaces: 3 }).admitCreate(userId)).resolves.toBeUndefined();
  });

  it("refuses a start past the running limit, saying to stop one, and never counts the workspace being started", async () => {
    await addWorkspaceRow(db, "w1", { ownerId: userId, state: "running" });
    await addWorkspaceRow(db, "w2", { ownerId: userId, state: "running" });
    await addWorkspaceRow(db, "w3", { ownerId: userId, state: "stopped" });
    const limits = limitsOf({ running: 2 });
    await expect(limits.admitStart(userId, "w3")).rejects.toMatchObject({
      kind: "too_many",
      message: "you have 2 of 2 running workspaces; stop one to start another",
    });
    await expect(limits.admitCreate(userId)).rejects.toThrow(
      "you have 2 of 2 running workspaces; stop one to create another",
    );
    // A start of one already asked to run (a restart) is no second one.
    await expect(limits.admitStart(userId, "w2")).resolves.toBeUndefined();
  });

  it("refuses a start whose memory, CPUs or disk would pass what the person's running workspaces may use together", async () => {
    await addWorkspaceRow(db, "w1", { ownerId: userId, state: "running" });
    await addWorkspaceRow(db, "w2", { ownerId: userId, state: "stopped" });
    await expect(limitsOf({ memoryMb: 1536 }).admitStart(userId, "w2")).rejects.toThrow(
      "your running workspaces use 1024 MB of your memory limit of 1536 MB and one more needs 1024 MB; stop one to start another",
    );
    await expect(limitsOf({ cpus: 1 }).admitStart(userId, "w2")).rejects.toThrow(
      "your running workspaces use 1 CPU of your CPU limit of 1 CPU and one more needs 1 CPU; stop one to start another",
    );
    await expect(limitsOf({ diskMb: 3000 }).admitStart(userId, "w2")).rejects.toThrow(
      "your running workspaces use 2048 MB of your disk limit of 3000 MB and one more needs 2048 MB; stop one to start another",
    );
    await expect(
      limitsOf({ memoryMb: 2048, cpus: 2, diskMb: 4096 }).admitStart(userId, "w2"),
    ).resolves.toBeUndefined();
  });

  it("applies an admin's limits for the user over the defaults, and only for that user", async () => {
    const other = await new Accounts(db).create({
      email: "bo@example.com",
      displayName: "Bo",
      siteRole: "member",
    });
    await db
      .updateTable("users")
      .set({ limits: JSON.stringify({ workspaces: 0 }) })
      .where("id", "=", userId)
      .execute();
    const limits = limitsOf({});
    expect((await limits.of(userId)).workspaces).toBe(0);
    await expect(limits.admitCreate(userId)).rejects.toThrow("you have 0 of 0 workspaces");
    await expect(limits.admitCreate(other.id)).resolves.toBeUndefined();
  });

  it("counts only the person's own workspaces", async () => {
    const other = await new Accounts(db).create({
      email: "bo@example.com",
      displayName: "Bo",
      siteRole: "member",
    });
    await addWorkspaceRow(db, "w1", { ownerId: other.id, state: "running" });
    await expect(limitsOf({ workspaces: 1, running: 1 }).admitCreate(userId)).resolves.toBeUndefined();
  });
});
