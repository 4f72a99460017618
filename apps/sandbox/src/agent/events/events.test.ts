import type { StoredSessionEvent } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ClusterMembership, joinCluster } from "../../cluster/join-cluster";
import type { Db } from "../../db/database";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../../db/testing/test-database";
import { SessionStore } from "../store/session-store";
import { TEST_HEARTBEAT } from "../testing/agent-fixture";
import { DeltaCoalescer } from "./coalescer";
import { EventLog } from "./event-log";
import { SessionRecorder } from "./recorder";

let database: TestDatabase;
let db: Db;
let cluster: ClusterMembership;
let log: EventLog;

async function addSession(id: string): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto("workspaces")
    .values({ id: `ws${id}`, name: "w", egress: 0, image: "i", created_at: at, desired_state: "running" })
    .execute();
  await db
    .insertInto("sessions")
    .values({
      id,
      workspace_id: `ws${id}`,
      parent_id: null,
      title: "t",
      agent: "build",
      model: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

const todos = (n: number) => ({
  type: "todos.updated" as const,
  todos: [{ id: String(n), content: `item ${n}`, status: "pending" as const, priority: "low" as const }],
});

async function take(gen: AsyncGenerator<StoredSessionEvent>, count: number): Promise<StoredSessionEvent[]> {
  const out: StoredSessionEvent[] = [];
  for await (const e of gen) {
    out.push(e);
    if (out.length === count) break;
  }
  return out;
}

describe.each(DIALECTS)("on %s", (dialect) => {
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
    cluster = await joinCluster(database.settings, db, () => {}, TEST_HEARTBEAT);
    log = new EventLog(db, cluster.bus, cluster.instance.id);
    await addSession("session-a");
    await addSession("session-b");
  });

  afterEach(async () => {
    await cluster.leave();
    await database.close();
  });

  describe("the event log", () => {
    it("publishes an event only after its row is committed", async () => {
      // Another connection sees only committed rows.
      const reader = await database.connect();
      const controller = new AbortController();
      const seenAtPublish: number[] = [];
      const follower = (async () => {
        for await (const e of log.follow("session-a", 0, controller.signal)) {
          const rows = await reader
            .selectFrom("session_events")
            .select("id")
            .where("id", "=", e.id)
            .execute();
          seenAtPublish.push(rows.length);
          if (seenAtPublish.length === 3) return;
        }
      })();
      await Promise.all([1, 2, 3].map((n) => log.append("session-a", todos(n), n !== 2)));
      await follower;
      controller.abort();
      expect(seenAtPublish).toEqual([1, 1, 1]);
    });

    it("stores a burst of events in one go, in the order they were appended", async () => {
      const stored = await Promise.all([1, 2, 3, 4, 5].map((n) => log.append("session-a", todos(n))));
      const ids = stored.map((s) => s.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(stored.map((s) => (s.type === "todos.updated" ? s.todos[0]?.id : ""))).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
      ]);
      const row = await db
        .selectFrom("todos")
        .selectAll()
        .where("session_id", "=", "session-a")
        .executeTakeFirst();
      expect(JSON.parse(row?.items ?? "[]")[0].id).toBe("5");
    });

    it("keeps the other events of a batch when one of them cannot be stored", async () => {
      const results = await Promise.allSettled([
        log.append("session-a", todos(1)),
        log.append("no-such-session", todos(2)),
        log.append("session-a", todos(3)),
      ]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    });

    it("replays what a reconnecting subscriber missed, then follows live, without gaps or repeats", async () => {
      const early = [];
      for (let n = 1; n <= 3; n++) early.push(await log.append("session-a", todos(n)));
      await log.append("session-b", todos(99));
      const controller = new AbortController();
      const follower = log.follow("session-a", early[0]?.id ?? 0, controller.signal);
      const pending = take(follower, 4);
      // Appended while the replay may still be reading: must come exactly once.
      const late = await Promise.all([log.append("session-a", todos(4)), log.append("session-a", todos(5))]);
      const got = await pending;
      controller.abort();
      expect(got.map((e) => e.id)).toEqual([early[1]?.id, early[2]?.id, late[0]?.id, late[1]?.id]);
      expect(got.every((e) => e.sessionId === "session-a")).toBe(true);
    });

    it.runIf(dialect === "postgres")(
      "delivers what another instance appends, live, in order and once, while both write to the session",
      async () => {
        const other = await joinCluster(database.settings, db, () => {}, TEST_HEARTBEAT);
        const otherLog = new EventLog(await database.connect(), other.bus, other.instance.id);
        const controller = new AbortController();
        const following = take(log.follow("session-a", 0, controller.signal), 220);
        await Promise.all(
          Array.from({ length: 100 }, (_, i) => [
            otherLog.append("session-a", todos(i), i % 3 === 0),
            log.append("session-a", todos(1000 + i), i % 2 === 0),
          ]).flat(),
        );
        // And some that only the other instance writes: nothing here announces them.
        for (let i = 0; i < 20; i++) await otherLog.append("session-a", todos(2000 + i));
        const got = await following;
        controller.abort();
        await other.leave();
        const ids = got.map((e) => e.id);
        expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
        expect(ids).toHaveLength(220);
      },
    );

    it("replays a long history page by page", async () => {
      await Promise.all(Array.from({ length: 1203 }, (_, i) => log.append("session-a", todos(i))));
      const controller = new AbortController();
      const got = await take(log.follow("session-a", 0, controller.signal), 1203);
      controller.abort();
      expect(got).toHaveLength(1203);
      expect(new Set(got.map((e) => e.id)).size).toBe(1203);
      expect(await new SessionStore(db).lastEventId("session-a")).toBe(got.at(-1)?.id);
    });

    it("ends a subscription when its signal aborts", async () => {
      const controller = new AbortController();
      const follower = log.follow("session-a", 0, controller.signal);
      const next = follower.next();
      controller.abort();
      expect((await next).done).toBe(true);
    });
  });
});

describe("streamed text", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is joined per part and handed on once per interval", () => {
    const emitted: { partId: string; delta: string }[][] = [];
    const c = new DeltaCoalescer((d) => emitted.push(d.map(({ partId, delta }) => ({ partId, delta }))), 50);
    c.push("m", "p1", "Hel");
    c.push("m", "p1", "lo");
    c.push("m", "p2", "think");
    c.push("m", "p1", "!");
    expect(emitted).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(emitted).toEqual([
      [
        { partId: "p1", delta: "Hello" },
        { partId: "p2", delta: "think" },
        { partId: "p1", delta: "!" },
      ],
    ]);
    c.push("m", "p1", "more");
    c.flush();
    expect(emitted[1]).toEqual([{ partId: "p1", delta: "more" }]);
    vi.advanceTimersByTime(500);
    expect(emitted).toHaveLength(2);
  });

  it("ignores empty deltas", () => {
    const emitted: unknown[] = [];
    const c = new DeltaCoalescer((d) => emitted.push(d), 50);
    c.push("m", "p", "");
    vi.advanceTimersByTime(100);
    expect(emitted).toEqual([]);
  });
});

describe.each(DIALECTS)("a session recorder on %s", (dialect) => {
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
    cluster = await joinCluster(database.settings, db, () => {}, TEST_HEARTBEAT);
    log = new EventLog(db, cluster.bus, cluster.instance.id);
    await addSession("session-a");
  });
  afterEach(async () => {
    await cluster.leave();
    await database.close();
  });

  it("stores text waiting in the coalescer before the next event, so the order holds", async () => {
    const recorder = new SessionRecorder(log, "session-a", 10_000);
    const messageId = "message-1";
    await recorder.emit({
      type: "message.created",
      message: {
        id: messageId,
        sessionId: "session-a",
        role: "assistant",
        agent: "build",
        model: null,
        createdAt: new Date().toISOString(),
      },
    });
    await recorder.emit({
      type: "part.updated",
      part: { id: "part-0001", messageId, type: "text", text: "" },
    });
    recorder.delta(messageId, "part-0001", "Hello, ");
    recorder.delta(messageId, "part-0001", "world");
    const after = await recorder.emit(todos(1));
    await recorder.drain();
    const rows = await db
      .selectFrom("session_events")
      .selectAll()
      .where("session_id", "=", "session-a")
      .execute();
    const types = rows.map((r) => JSON.parse(r.data).type);
    expect(types).toEqual(["message.created", "part.updated", "part.delta", "todos.updated"]);
    expect(rows.at(-1)?.id).toBe(after.id);
    const part = await db.selectFrom("parts").selectAll().where("id", "=", "part-0001").executeTakeFirst();
    expect(part?.text).toBe("Hello, world");
  });

  it("stores streamed text that holds a NUL character (PostgreSQL keeps U+FFFD in its place)", async () => {
    const recorder = new SessionRecorder(log, "session-a", 10_000);
    const messageId = "message-1";
    const createdAt = new Date().toISOString();
    await recorder.emit({
      type: "message.created",
      message: {
        id: messageId,
        sessionId: "session-a",
        role: "assistant",
        agent: "build",
        model: null,
        createdAt,
      },
    });
    await recorder.emit({
      type: "part.updated",
      part: { id: "part-nul", messageId, type: "text", text: "a\0" },
    });
    recorder.delta(messageId, "part-nul", "b\0c");
    await recorder.drain();
    const part = await db.selectFrom("parts").selectAll().where("id", "=", "part-nul").executeTakeFirst();
    expect(part?.text).toBe(dialect === "postgres" ? "a\uFFFDb\uFFFDc" : "a\0b\0c");
  });

  it("reports a failed write on the next emit", async () => {
    const recorder = new SessionRecorder(log, "no-such-session", 10_000);
    recorder.post(todos(1));
    await expect(recorder.drain()).rejects.toThrow();
    await expect(recorder.emit(todos(2))).rejects.toThrow();
  });
});
