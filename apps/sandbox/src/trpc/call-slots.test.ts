import { describe, expect, it } from "vitest";
import { CallSlots, TooManyCallsError } from "./call-slots";

describe("each person's turns on a workspace", () => {
  it("runs a person's calls two at a time in order, while another person's call runs at once", async () => {
    const slots = new CallSlots(2, 10);
    const first = await slots.take("w", "vera");
    await slots.take("w", "vera");
    const order: string[] = [];
    const inTurn = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const third = slots.take("w", "vera").then(inTurn("third"));
    const fourth = slots.take("w", "vera").then(inTurn("fourth"));
    await slots.take("w", "owner");
    await slots.take("w2", "vera");
    expect(order).toEqual([]);
    first();
    first(); // a second release of the same turn frees nothing more
    (await third)();
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
  });

  it("refuses a call beyond the waiting limit, and lets a call leave the line when it is abandoned", async () => {
    const slots = new CallSlots(1, 1);
    const release = await slots.take("w", "vera");
    const abandoned = new AbortController();
    const waiting = slots.take("w", "vera", abandoned.signal);
    await expect(slots.take("w", "vera")).rejects.toThrow(TooManyCallsError);
    abandoned.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    const next = slots.take("w", "vera");
    release();
    await expect(next).resolves.toBeTypeOf("function");
  });
});
