import { describe, expect, it } from "vitest";
import { reconnectDelay } from "./reconnect-delay";

describe("reconnectDelay", () => {
  it("waits a little at first and twice as long after each failure", () => {
    expect([0, 1, 2, 3].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000]);
  });

  it("never waits more than ten seconds", () => {
    expect(reconnectDelay(5)).toBe(10_000);
    expect(reconnectDelay(60)).toBe(10_000);
  });
});
