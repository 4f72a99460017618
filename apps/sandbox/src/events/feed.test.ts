import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { Feed } from "./feed";

async function take<T>(iter: AsyncGenerator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iter) {
    out.push(item);
    if (out.length === n) break;
  }
  return out;
}

describe("Feed", () => {
  it("delivers live events to a subscriber in order", async () => {
    const feed = new Feed<number>();
    const ac = new AbortController();
    const received = take(feed.subscribe(undefined, ac.signal), 3);
    await Promise.resolve();
    feed.publish(1);
    feed.publish(2);
    feed.publish(3);
    const items = await received;
    expect(items.map((i) => (i.kind === "event" ? i.item.data : null))).toEqual([1, 2, 3]);
  });

  it("resumes after the last seen id without gaps or duplicates", async () => {
    const feed = new Feed<string>();
    const first = feed.publish("a");
    feed.publish("b");
    feed.publish("c");
    const items = await take(feed.subscribe(first.id, undefined), 2);
    expect(items.map((i) => (i.kind === "event" ? i.item.data : null))).toEqual(["b", "c"]);
  });

  it("asks for a resync when the missed events fell out of the buffer", async () => {
    const feed = new Feed<number>(2);
    const first = feed.publish(1);
    feed.publish(2);
    feed.publish(3);
    feed.publish(4);
    const [head] = await take(feed.subscribe(first.id, undefined), 1);
    expect(head).toEqual({ kind: "resync" });
  });

  it("asks for a resync when the id comes from an earlier run", async () => {
    const feed = new Feed<number>();
    feed.publish(1);
    const [head] = await take(feed.subscribe("deadbeef-1", undefined), 1);
    expect(head).toEqual({ kind: "resync" });
  });

  it("ends the subscription when its signal aborts", async () => {
    const feed = new Feed<number>();
    const ac = new AbortController();
    const iter = feed.subscribe(undefined, ac.signal);
    const next = iter.next();
    ac.abort();
    expect((await next).done).toBe(true);
  });

  it("keeps one abort listener per subscriber however many events it waits for, and none after", async () => {
    const feed = new Feed<number>();
    const ac = new AbortController();
    const iter = feed.subscribe(undefined, ac.signal);
    for (let i = 0; i < 50; i++) {
      // The subscriber waits for each event, as a live subscription does between events.
      const next = iter.next();
      await Promise.resolve();
      feed.publish(i);
      await next;
    }
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(1);
    await iter.return(undefined);
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
  });
});
