import { AGENT_COLLAB_USER, type PresencePerson } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal";
import { MAX_TABS_PER_PERSON, PresenceBoard, TooManyTabsError } from "./presence-board";

const owner: Principal = { kind: "user", sessionId: "o1", userId: "u1", name: "Owner", siteRole: "admin" };
const ada: Principal = {
  kind: "guest",
  sessionId: "g1",
  shareId: "s1",
  workspaceId: "w1",
  name: "Ada",
  role: "editor",
};

/** Reads the board as `viewer` sees it after each change, until `stop` aborts. */
function watcher(board: PresenceBoard, viewer: Principal) {
  const stop = new AbortController();
  const seen = board.watch("w1", viewer, stop.signal);
  return {
    next: async (): Promise<PresencePerson[] | undefined> => (await seen.next()).value ?? undefined,
    stop: () => stop.abort(),
  };
}

describe("the presence board", () => {
  it("shows everyone on the workspace with their own name, role and a colour each", async () => {
    const board = new PresenceBoard();
    board.join("w1", owner, "owner", "tab-owner-1");
    board.join("w1", ada, "editor", "tab-ada-01");
    const list = await watcher(board, ada).next();
    expect(list?.map((p) => [p.name, p.role, p.you])).toEqual([
      ["Owner", "owner", false],
      ["Ada", "editor", true],
    ]);
    expect(new Set(list?.map((p) => p.colour)).size).toBe(2);
  });

  it("updates a watcher live as people come, switch files and go", async () => {
    const board = new PresenceBoard();
    const leaveOwner = board.join("w1", owner, "owner", "tab-owner-1");
    const watching = watcher(board, owner);
    expect((await watching.next())?.map((p) => p.name)).toEqual(["Owner"]);
    const leaveAda = board.join("w1", ada, "editor", "tab-ada-01");
    expect((await watching.next())?.map((p) => p.name)).toEqual(["Owner", "Ada"]);
    board.openFile("w1", ada, "tab-ada-01", "src/main.ts");
    expect((await watching.next())?.find((p) => p.name === "Ada")?.file).toBe("src/main.ts");
    leaveAda();
    expect((await watching.next())?.map((p) => p.name)).toEqual(["Owner"]);
    watching.stop();
    leaveOwner();
  });

  it("lists a person with two tabs once, with the file of the tab they used last", async () => {
    const board = new PresenceBoard();
    const leaveFirst = board.join("w1", ada, "editor", "tab-ada-01");
    board.join("w1", ada, "editor", "tab-ada-02");
    board.openFile("w1", ada, "tab-ada-02", "b.ts");
    board.openFile("w1", ada, "tab-ada-01", "a.ts");
    const [person] = (await watcher(board, owner).next()) ?? [];
    expect(person?.file).toBe("a.ts");
    leaveFirst();
    const after = await watcher(board, owner).next();
    expect(after?.map((p) => [p.name, p.file])).toEqual([["Ada", "b.ts"]]);
  });

  it("ignores a file report for a tab that is not on the board, or of another person", async () => {
    const board = new PresenceBoard();
    board.join("w1", ada, "editor", "tab-ada-01");
    board.openFile("w1", owner, "tab-ada-01", "stolen.ts");
    board.openFile("w1", ada, "nosuchtab0", "x.ts");
    const list = await watcher(board, owner).next();
    expect(list?.map((p) => p.file)).toEqual([null]);
  });

  it("keeps a reconnected tab when the old connection's leave comes late", async () => {
    const board = new PresenceBoard();
    const oldLeave = board.join("w1", ada, "editor", "tab-ada-01");
    board.join("w1", ada, "editor", "tab-ada-01");
    oldLeave();
    expect((await watcher(board, owner).next())?.map((p) => p.name)).toEqual(["Ada"]);
  });

  it("shows the agent while a turn runs, for the person who prompted it, at the file its call reaches", async () => {
    const board = new PresenceBoard();
    board.join("w1", ada, "editor", "tab-ada-01");
    const watching = watcher(board, owner);
    await watching.next();
    const leave = board.agentArrives("w1", "ses_1", "Ada");
    const working = await watching.next();
    expect(working?.map((p) => [p.name, p.agent?.for ?? null, p.file])).toEqual([
      ["Ada", null, null],
      ["Agent", "Ada", null],
    ]);
    board.agentAt("w1", "ses_1", "src/main.ts");
    expect((await watching.next())?.find((p) => p.agent)?.file).toBe("src/main.ts");
    leave();
    expect((await watching.next())?.map((p) => p.name)).toEqual(["Ada"]);
    watching.stop();
  });

  it("gives the agent the colour of its edits and the people theirs", async () => {
    const board = new PresenceBoard();
    board.join("w1", ada, "editor", "tab-ada-01");
    const alone = (await watcher(board, owner).next())?.[0]?.colour;
    board.agentArrives("w1", "ses_1", "Ada");
    board.agentArrives("w1", "ses_2", "Owner");
    const list = (await watcher(board, owner).next()) ?? [];
    expect(list.map((p) => p.colour)).toEqual([alone, AGENT_COLLAB_USER.color, AGENT_COLLAB_USER.color]);
    expect(list.filter((p) => p.agent).map((p) => p.agent?.for)).toEqual(["Ada", "Owner"]);
  });

  it("forgets a turn's file report once it left, and keeps the board of a later turn of the session", async () => {
    const board = new PresenceBoard();
    const first = board.agentArrives("w1", "ses_1", "Ada");
    first();
    board.agentAt("w1", "ses_1", "late.ts");
    const second = board.agentArrives("w1", "ses_1", "Bob");
    first();
    const list = await watcher(board, owner).next();
    expect(list?.map((p) => [p.agent?.for, p.file])).toEqual([["Bob", null]]);
    second();
    expect(await watcher(board, owner).next()).toEqual([]);
  });

  it("refuses more tabs per person than the cap", () => {
    const board = new PresenceBoard();
    for (let i = 0; i < MAX_TABS_PER_PERSON; i++) board.join("w1", ada, "editor", `tab-ada-${i}0000`);
    expect(() => board.join("w1", ada, "editor", "tab-one-too-many")).toThrow(TooManyTabsError);
  });
});
