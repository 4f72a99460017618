import { TALK_KEPT_MESSAGES } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { addWorkspaceRow } from "../db/testing/workspace-rows";
import type { Speaker } from "./speaker";
import { TalkStore } from "./talk-store";

const ada: Speaker = { key: "ada-key", name: "Ada", role: "viewer", guest: true };

describe.each(DIALECTS)("the people's talk stored on %s", (dialect) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function open(): Promise<{ db: Db; store: TalkStore }> {
    database = await openTestDatabase(dialect);
    await addWorkspaceRow(database.db, "w1");
    return { db: database.db, store: new TalkStore(database.db) };
  }

  it("gives the lines back in order, and only those after the id a reader has", async () => {
    const { store } = await open();
    const first = await store.append("w1", "joined", ada, null);
    const second = await store.append("w1", "message", ada, "hello <b>there</b>");
    expect((await store.lines("w1", null)).map((l) => [l.kind, l.text])).toEqual([
      ["joined", null],
      ["message", "hello <b>there</b>"],
    ]);
    expect(await store.lines("w1", first.id)).toEqual([second]);
    expect(second.speaker).toEqual(ada);
  });

  it(`keeps only the latest ${TALK_KEPT_MESSAGES} lines of a workspace`, async () => {
    const { store } = await open();
    for (let i = 0; i < TALK_KEPT_MESSAGES + 20; i++) await store.append("w1", "message", ada, `line ${i}`);
    const kept = await store.lines("w1", null);
    expect(kept).toHaveLength(TALK_KEPT_MESSAGES);
    expect(kept[0]?.text).toBe("line 20");
    expect(kept.at(-1)?.text).toBe(`line ${TALK_KEPT_MESSAGES + 19}`);
  });

  it("lets viewers write until the owner turns it off, and refuses a line the check refuses", async () => {
    const { store } = await open();
    expect(await store.viewersMayWrite("w1")).toBe(true);
    await store.setViewersMayWrite("w1", false);
    expect(await store.viewersMayWrite("w1")).toBe(false);
    const refused = store.append("w1", "message", ada, "may I?", (allowed) => {
      if (!allowed) throw new Error("refused");
    });
    await expect(refused).rejects.toThrow("refused");
    expect(await store.lines("w1", null)).toEqual([]);
  });

  it("is deleted with its workspace", async () => {
    const { db, store } = await open();
    await store.append("w1", "message", ada, "soon gone");
    await store.setViewersMayWrite("w1", false);
    await db.deleteFrom("workspaces").where("id", "=", "w1").execute();
    expect(await db.selectFrom("talk_lines").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("talk_rooms").selectAll().execute()).toEqual([]);
  });
});
