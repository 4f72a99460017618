import type { PresencePerson } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal";
import { type ClusterMembership, joinCluster } from "../cluster/join-cluster";
import { openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { PresenceBoard } from "./presence-board";
import { PresenceShare } from "./presence-share";

const owner: Principal = { kind: "user", sessionId: "o1", userId: "u1", name: "Owner", siteRole: "admin" };
const guest = (sessionId: string, name: string): Principal => ({
  kind: "guest",
  sessionId,
  shareId: "s1",
  workspaceId: "w1",
  name,
  role: "editor",
});
const ada = guest("g1", "Ada");
const bob = guest("g2", "Bob");

let database: TestDatabase | undefined;
const members: ClusterMembership[] = [];
const boards: PresenceBoard[] = [];
const stops: AbortController[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop.abort();
  for (const board of boards.splice(0)) await board.close();
  for (const member of members.splice(0)) await member.leave();
  await database?.close();
});

/** A service instance's board on the shared PostgreSQL database. */
async function instance(connect: boolean): Promise<{ board: PresenceBoard; member: ClusterMembership }> {
  if (!database) throw new Error("no database");
  const db = connect ? await database.connect() : database.db;
  const member = await joinCluster(database.settings, db, () => {});
  const board = new PresenceBoard(new PresenceShare(db, member.bus, member.instance));
  members.push(member);
  boards.push(board);
  return { board, member };
}

/** The latest list `viewer` sees on the board, read as it changes. */
function follow(board: PresenceBoard, viewer: Principal) {
  const stop = new AbortController();
  stops.push(stop);
  let latest: PresencePerson[] = [];
  void (async () => {
    for await (const list of board.watch("w1", viewer, stop.signal)) latest = list;
  })();
  return () => latest.map((p) => `${p.name}:${p.colour}:${p.file ?? "-"}${p.you ? ":you" : ""}`);
}

describe("presence across service instances on one PostgreSQL database", () => {
  it("shows the people of both instances on each, in one order with the same colours, a person on both once", async () => {
    database = await openTestDatabase("postgres");
    const a = await instance(false);
    const b = await instance(true);
    a.board.join("w1", owner, "owner", "tab-owner-1");
    const onA = follow(a.board, owner);
    // The owner came first (the board's order is who came first, by the clock).
    await expect.poll(() => onA().length).toBe(1);
    b.board.join("w1", ada, "editor", "tab-ada-01");
    const onB = follow(b.board, ada);
    await expect.poll(() => onA().length, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => onB().length, { timeout: 10_000 }).toBe(2);
    expect(onA().map((e) => e.replace(":you", ""))).toEqual(onB().map((e) => e.replace(":you", "")));
    expect(onA()[0]).toMatch(/^Owner:.*:you$/);
    expect(onB()[1]).toMatch(/^Ada:.*:you$/);

    // Ada opens a second tab on A and shows a file there: still one Ada, with that file, on both.
    a.board.join("w1", ada, "editor", "tab-ada-02");
    a.board.openFile("w1", ada, "tab-ada-02", "src/main.ts");
    await expect
      .poll(() => onB().filter((e) => e.startsWith("Ada:")), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/^Ada:.*:src\/main\.ts:you$/)]);
    await expect.poll(() => onA().filter((e) => e.startsWith("Ada:")).length).toBe(1);
    const colours = new Set(onA().map((e) => e.split(":")[1]));
    expect(colours.size).toBe(2);
  });

  it("shows the agent at work on another instance, for its prompter, until its turn ends", async () => {
    database = await openTestDatabase("postgres");
    const a = await instance(false);
    const b = await instance(true);
    a.board.join("w1", owner, "owner", "tab-owner-1");
    const onA = follow(a.board, owner);
    await expect.poll(() => onA().length).toBe(1);
    const leave = b.board.agentArrives("w1", "ses_1", "Ada");
    b.board.agentAt("w1", "ses_1", "notes.txt");
    await expect
      .poll(() => onA().filter((e) => e.startsWith("Agent:")), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/^Agent:.*:notes\.txt$/)]);
    leave();
    await expect.poll(() => onA().map((e) => e.split(":")[0]), { timeout: 10_000 }).toEqual(["Owner"]);
  });

  it("takes the people of an instance that stops off the others' boards", async () => {
    database = await openTestDatabase("postgres");
    const a = await instance(false);
    const b = await instance(true);
    a.board.join("w1", owner, "owner", "tab-owner-1");
    b.board.join("w1", bob, "editor", "tab-bob-001");
    const onA = follow(a.board, owner);
    await expect.poll(() => onA().length, { timeout: 10_000 }).toBe(2);
    await b.board.close();
    await expect.poll(() => onA().map((e) => e.split(":")[0]), { timeout: 10_000 }).toEqual(["Owner"]);
  });
});
